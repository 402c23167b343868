"""Program-of-thought Python solutions scored safely: FinanceMath, DocMath-Eval and MathQA-Python."""
