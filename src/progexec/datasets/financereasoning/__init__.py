"""FinanceReasoning (Tang et al., ACL 2025): its Python golds, its published runs and its official rule."""
