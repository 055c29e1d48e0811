-- Stand-in for nvim-nio (tests only; see ../../README.md): tasks are coroutines, and an
-- asynchronous wait yields a function that arranges for the task to be resumed later.
local nio = { control = {} }

local function await(register)
  local co, main = coroutine.running()
  assert(co and not main, 'nio stand-in: an async function was called outside a task')
  return coroutine.yield(register)
end

-- Runs `fn` as a task; `cb(ok, result_or_error)` when it ends.
function nio.run(fn, cb)
  local co = coroutine.create(fn)
  local task = { done = false }
  local function step(...)
    local ok, yielded = coroutine.resume(co, ...)
    if not ok then
      task.done = true
      if cb then return cb(false, yielded) end
      error(yielded)
    end
    if coroutine.status(co) == 'dead' then
      task.done = true
      if cb then cb(true, yielded) end
      return
    end
    yielded(step)
  end
  step()
  return task
end

-- Resumes the task from the main loop (where the Neovim API may be called).
function nio.scheduler()
  return await(function(resume) vim.schedule(resume) end)
end

function nio.sleep(ms)
  return await(function(resume) vim.defer_fn(resume, ms) end)
end

function nio.control.future()
  local is_set, value, err = false, nil, nil
  local waiters = {}
  local function wake()
    local list = waiters
    waiters = {}
    for _, resume in ipairs(list) do vim.schedule(resume) end
  end
  local future = {}
  function future.set(v)
    assert(not is_set, 'nio stand-in: future set twice')
    is_set, value = true, v
    wake()
  end
  function future.set_error(message)
    assert(not is_set, 'nio stand-in: future set twice')
    is_set, err = true, message
    wake()
  end
  function future.is_set() return is_set end
  function future.wait()
    if not is_set then await(function(resume) table.insert(waiters, resume) end) end
    if err ~= nil then error(err, 0) end
    return value
  end
  return future
end

function nio.control.queue()
  local items, head, tail = {}, 1, 0
  local getters = {}
  local queue = {}
  function queue.size() return tail - head + 1 end
  function queue.put_nowait(v)
    tail = tail + 1
    items[tail] = v
    local resume = table.remove(getters, 1)
    if resume then vim.schedule(resume) end
  end
  function queue.put(v) queue.put_nowait(v) end
  function queue.get_nowait()
    assert(queue.size() > 0, 'nio stand-in: queue is empty')
    local v = items[head]
    items[head] = nil
    head = head + 1
    return v
  end
  function queue.get()
    while queue.size() == 0 do await(function(resume) table.insert(getters, resume) end) end
    return queue.get_nowait()
  end
  return queue
end

return nio
