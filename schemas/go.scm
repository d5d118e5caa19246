; go: schema not written yet
