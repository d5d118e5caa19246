; c: schema not written yet
