-- Stand-in for neotest.types.Tree (tests only; see ../../../README.md): a tree built from nested
-- lists, where a list's first element is the node's data and the rest are its children (a bare
-- table that is not a list is a leaf), indexed by key(data).
local Tree = {}
Tree.__index = Tree

local function islist(t)
  return type(t) == 'table' and (vim.islist or vim.tbl_islist)(t)
end

local function build(data, key, parent, nodes)
  local node = setmetatable({ _children = {}, _parent = parent, _nodes = nodes, _key = key }, Tree)
  if islist(data) then
    node._data = data[1]
    for i = 2, #data do table.insert(node._children, build(data[i], key, node, nodes)) end
  else
    node._data = data
  end
  nodes[key(node._data)] = node
  return node
end

function Tree.from_list(data, key)
  return build(data, key, nil, {})
end

function Tree:data() return self._data end
function Tree:children() return self._children end
function Tree:parent() return self._parent end
function Tree:get_key(k) return self._nodes[k] end

function Tree:root()
  local node = self
  while node._parent do node = node._parent end
  return node
end

function Tree:to_list()
  if #self._children == 0 then return { self._data } end
  local out = { self._data }
  for _, c in ipairs(self._children) do table.insert(out, c:to_list()) end
  return out
end

-- Depth-first, the node itself first: for i, node in tree:iter_nodes() do ... end
function Tree:iter_nodes()
  local order = {}
  local function walk(n)
    table.insert(order, n)
    for _, c in ipairs(n._children) do walk(c) end
  end
  walk(self)
  local i = 0
  return function()
    i = i + 1
    if order[i] then return i, order[i] end
  end
end

function Tree:iter()
  local it = self:iter_nodes()
  return function()
    local i, n = it()
    if i then return i, n:data() end
  end
end

return Tree
