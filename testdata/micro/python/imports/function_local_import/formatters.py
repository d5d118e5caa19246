def render(data):
    return "|".join(f"{k}={v}" for k, v in sorted(data.items()))
