// Small math helpers (the passing C++ example).
#pragma once

long factorial(int n);
bool isPalindrome(long n);
