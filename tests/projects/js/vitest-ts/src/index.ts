export { render, renderAsync, parse, TemplateError, type RenderOptions } from './template.js';
export { builtinFilters, type Filter } from './filters.js';
export { getPath } from './utils/path.js';
