; bash: schema not written yet
