"""The rules of Sushi Go!: vocabulary and notation, rulesets, reference executor, Z3 model."""
