"""/train's parts that other pages use too (not pages themselves)."""
