"""Sushi Go Party! questions answered exactly: the best round one player could have played
(:mod:`.best`: a search engine, :mod:`.search`, and a Z3 engine, :mod:`.z3best`, over the
puzzle form of :mod:`.puzzle`)."""
