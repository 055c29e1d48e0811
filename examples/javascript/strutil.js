// String helpers (the failing JavaScript example: capitalize has a bug).
function capitalize(word) {
  return word.charAt(0).toUpperCase() + word.slice(0);  // bug: should be slice(1)
}

function reverse(s) {
  return [...s].reverse().join('');
}

module.exports = { capitalize, reverse };
