; cpp: schema not written yet
