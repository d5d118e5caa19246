; ruby: schema not written yet
