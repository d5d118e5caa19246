; java: schema not written yet
