"""Not a Party adapter: it offers the base game's score_round, not score_party_round."""


def score_round(tableaux: list[list[str]]) -> list[int]:
    return [0] * len(tableaux)
