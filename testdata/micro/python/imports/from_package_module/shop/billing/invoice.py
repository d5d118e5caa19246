def line_total(quantity, unit_price):
    return round(quantity * unit_price, 2)


def build_invoice(customer, lines):
    total = sum(line_total(q, p) for q, p in lines)
    return {"customer": customer, "total": total}
