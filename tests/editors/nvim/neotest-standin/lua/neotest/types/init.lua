-- Stand-in for neotest.types (tests only; see ../../../README.md).
return { Tree = require('neotest.types.tree') }
