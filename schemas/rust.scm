; rust: schema not written yet
