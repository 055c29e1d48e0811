type Op = '+' | '-' | '*' | '/';

function apply(op: Op, a: number, b: number): number {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/':
      if (b === 0) throw new RangeError('division by zero');
      return a / b;
  }
}

// Evaluates "3 4 + 2 *" (reverse Polish notation).
function rpn(expr: string): number {
  const stack: number[] = [];
  for (const tok of expr.trim().split(/\s+/)) {
    if (/^-?\d+(\.\d+)?$/.test(tok)) {
      stack.push(Number(tok));
      continue;
    }
    const b = stack.pop();
    const a = stack.pop();
    if (a === undefined || b === undefined) throw new SyntaxError(`not enough operands for ${tok}`);
    stack.push(apply(tok as Op, a, b));
  }
  if (stack.length !== 1) throw new SyntaxError(`malformed expression: ${expr}`);
  return stack[0];
}

module.exports = { apply, rpn };
