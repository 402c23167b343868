"""The datasets progexec scores, one module (or subpackage) each."""
