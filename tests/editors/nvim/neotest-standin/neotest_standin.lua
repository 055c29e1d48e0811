-- What neotest's client does with an adapter for one file and one run (tests only; see
-- README.md), in a nio task: returns what each step gave, for the test to assert on.
local nio = require('nio')

local S = {}

-- Data chunks -> lists of whole lines (a line split across chunks is joined), as neotest feeds
-- a RunSpec's `stream`.
local function split_lines(next_chunk)
  local pending = ''
  local done = false
  return function()
    while not done do
      local data = next_chunk()
      if data == nil then
        done = true
        if pending ~= '' then
          local last = pending
          pending = ''
          return { last }
        end
        return nil
      end
      if data ~= '' then
        data = pending .. data
        local lines = vim.split(data, '\r?\n')
        pending = table.remove(lines)
        lines = vim.tbl_filter(function(l) return l ~= '' end, lines)
        if #lines > 0 then return lines end
      end
    end
    return nil
  end
end

-- Runs `fn` in a task and waits for it on the main loop (the test's own code is synchronous).
function S.block(fn, timeout_ms)
  local ok, value, finished = nil, nil, false
  nio.run(fn, function(success, result)
    ok, value, finished = success, result, true
  end)
  local waited = vim.wait(timeout_ms or 60000, function() return finished end, 20)
  if not waited then error('neotest stand-in: the task did not finish within ' .. tostring(timeout_ms) .. ' ms') end
  if not ok then error(value, 0) end
  return value
end

-- Discovery of `path`: { root, is_test_file, tree }.
function S.discover(adapter, path)
  return S.block(function()
    local out = {}
    out.root = adapter.root(vim.fn.fnamemodify(path, ':h'))
    out.is_test_file = adapter.is_test_file(path)
    out.tree = adapter.discover_positions(path)
    return out
  end)
end

-- One run of the node `position_id` (default: the file) of `tree`, with `before_result`
-- called with the process once it started (to stop it, say).
function S.run(adapter, tree, position_id, before_result)
  return S.block(function()
    local node = position_id and tree:get_key(position_id) or tree
    assert(node, 'no position ' .. tostring(position_id))
    local spec = adapter.build_spec({ tree = node, strategy = 'integrated' })
    assert(spec, 'build_spec returned nothing for ' .. node:data().id)
    assert(type(spec.strategy) == 'function', 'the adapter needs its own strategy function')
    local process = spec.strategy(spec, { position = node:data(), adapter = adapter })
    assert(process, 'the strategy returned no process')
    local streamed = {}
    local stream_done = nio.control.future()
    if spec.stream then
      nio.run(function()
        for results in spec.stream(split_lines(process.output_stream())) do table.insert(streamed, results) end
      end, function(ok, err)
        stream_done.set(ok or err)
      end)
    else
      stream_done.set(true)
    end
    if before_result then before_result(process) end
    local code = process.result()
    local output = process.output()
    local stream_ok = stream_done.wait()
    assert(stream_ok == true, 'the stream failed: ' .. tostring(stream_ok))
    local results = adapter.results(spec, { code = code, output = output }, node)
    return { code = code, output = output, streamed = streamed, results = results, complete = process.is_complete() }
  end, 120000)
end

return S
