; typescript: schema not written yet
