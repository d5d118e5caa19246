# Pattern: `from pkg.sub.mod import f` and `from pkg import mod` followed by calls
# to the imported names. Modelled on django apps importing helpers from
# nested packages (`from django.utils.text import slugify`).
from shop.billing.invoice import build_invoice
from shop import tax


def checkout(customer, lines):
    invoice = build_invoice(customer, lines)
    invoice["gross"] = tax.apply_tax(invoice["total"])
    return invoice


print(checkout("ada", [(2, 3.5), (1, 10.0)]))
