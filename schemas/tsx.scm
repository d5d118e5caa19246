; tsx: schema not written yet
