// The symbols ids are made of (reached by the package's "imports": '#alphabet').
export const alphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
