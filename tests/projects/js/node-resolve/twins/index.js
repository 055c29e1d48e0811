// Ids from a seeded generator (the "secure" flavour of this miniature of nanoid's layout).
import { alphabet } from '#alphabet';

export function idFrom(bytes) {
  let id = '';
  for (const b of bytes) id += alphabet[b & 63];
  return id;
}

export function nanoid(size = 21, next = (i) => (i * 37 + 11) & 255) {
  const bytes = [];
  for (let i = 0; i < size; i++) bytes.push(next(i));
  return idFrom(bytes);
}
