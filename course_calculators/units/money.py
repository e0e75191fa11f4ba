"""Money by ISO 4217 code: the symbol where English text has one, the currency's minor unit,
millions and billions as M and B."""

from __future__ import annotations

from .numbers import fixed, sig
from .unit import Unit, UnitError

#: The active ISO 4217 codes (Debian's iso-codes 4.15.0, ``/usr/share/iso-codes/json/iso_4217.json``).
CURRENCIES = frozenset(
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD "
    "CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL "
    "GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD "
    "KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK "
    "NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP "
    "STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF "
    "XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWL".split()
)
#: The symbols English text writes before an amount (CLDR's English names); other codes are written
#: as the code: 'CHF 12.50'.
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩", "CNY": "CN¥",
           "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "HKD": "HK$", "MXN": "MX$", "BRL": "R$", "ILS": "₪",
           "TWD": "NT$", "VND": "₫", "PHP": "₱"}
#: Digits after the point where ISO 4217's minor unit is not 2 (its table of active codes).
MINOR_UNITS = {**dict.fromkeys("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF".split(), 0),
               **dict.fromkeys("BHD IQD JOD KWD LYD OMR TND".split(), 3), "CLF": 4, "UYW": 4}


def _money(x: float, symbol: str, code: str, minor: int) -> str:
    """'$0.42', '$12.50', '$1,234', '$1.23M', '$2B', '−$5.00' (or 'CHF 12.50' with a code)."""
    sign = "−" if x < 0 else ""
    x = abs(x)
    head = f"{sign}{symbol}" if symbol else f"{sign}{code} "
    if x >= 1e9 or sig(x / 1e9) == "1":
        return f"{head}{sig(x / 1e9)}B"
    if x >= 1e6 or sig(x / 1e6) == "1":
        return f"{head}{sig(x / 1e6)}M"
    if x >= 100 or minor == 0:
        return f"{head}{x:,.0f}"
    if x >= 0.01 or x == 0:
        return f"{head}{x:,.{minor}f}"
    return f"{head}{sig(x)}"


def currency(code: str) -> Unit:
    """Money in the currency with this ISO 4217 code (``EUR``, ``USD``, ``JPY``)."""
    if code not in CURRENCIES:
        raise UnitError(f"{code!r} is not an ISO 4217 currency code")
    symbol = SYMBOLS.get(code, "")
    minor = MINOR_UNITS.get(code, 2)

    def precise(x: float, digits: int) -> str:
        text = fixed(x, digits)
        sign, text = ("−", text[1:]) if text.startswith("−") else ("", text)
        return f"{sign}{symbol}{text}" if symbol else f"{sign}{code} {text}"

    return Unit(code, lambda x: _money(x, symbol, code, minor), precise, f"money, {code}", 61.95)


def format_usd(x: float) -> str:
    """US dollars: '$0.42', '$12.50', '$1,234', '$1.23M'."""
    return _money(x, "$", "", 2)

