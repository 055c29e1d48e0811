"""A comment ready for generation: put the cursor on the comment below and run the
"Generate from comment" code action (or `greenlight generate python/triangle.py:5`)."""


# Return the n-th triangular number, 1 + 2 + ... + n; 0 for n <= 0.
