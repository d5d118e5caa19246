; javascript: schema not written yet
