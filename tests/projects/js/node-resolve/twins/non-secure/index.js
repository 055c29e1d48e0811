// The same API without a strong source of randomness: a module with the same file name as the
// package's main one (index.js), in another folder.
export const urlAlphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

export function customAlphabet(alphabet, defaultSize = 21) {
  return (size = defaultSize) => {
    let id = '';
    let i = size;
    while (i--) id += alphabet[(i * 7) % alphabet.length];
    return id;
  };
}

export function nanoid(size = 21) {
  let id = '';
  let i = size;
  while (i--) id += urlAlphabet[(i * 13) % 64];
  return id;
}
