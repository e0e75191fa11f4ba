"""Loan repayment: the fixed monthly payment of an amortizing loan, and where the money goes.

With principal P, a monthly rate r (the annual rate / 12) and n monthly payments, the payment that
repays the loan exactly is P·r / (1 − (1 + r)^−n), or P / n at a zero rate.
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Calculator, Chart, Number, Output, Preset

PARAMS = (
    Number("principal", "Amount borrowed", 250_000, 1_000, 2_000_000, step=1_000, unit="$"),
    Number("rate", "Annual interest rate", 6.5, 0, 25, step=0.05, unit="%", integer=False,
           help="The nominal yearly rate; interest is charged monthly at a twelfth of it."),
    Number("years", "Term", 30, 1, 40, unit="years"),
)

OUTPUTS = (
    Output("payment", "Monthly payment", "usd", primary=True),
    Output("total_interest", "Total interest", "usd", primary=True),
    Output("total_paid", "Total paid", "usd"),
    Output("interest_share", "Share of the payments that is interest", "fraction"),
)

PRESETS = (
    Preset("mortgage", "30-year mortgage", {"principal": 250_000, "rate": 6.5, "years": 30},
           "Over 30 years the interest is more than the amount borrowed."),
    Preset("car", "5-year car loan", {"principal": 30_000, "rate": 7.5, "years": 5},
           "A short term keeps the interest to about a fifth of the loan."),
)


def monthly_payment(principal: float, annual_rate_pct: float, years: int) -> float:
    """The fixed payment that repays ``principal`` in ``years`` × 12 months."""
    r = annual_rate_pct / 100 / 12
    n = years * 12
    if r == 0:
        return principal / n
    return principal * r / (1 - (1 + r) ** -n)


def compute(inputs: Mapping[str, Any]) -> dict[str, float]:
    payment = monthly_payment(inputs["principal"], inputs["rate"], inputs["years"])
    total = payment * inputs["years"] * 12
    interest = total - inputs["principal"]
    return {
        "payment": payment,
        "total_interest": interest,
        "total_paid": total,
        "interest_share": interest / total,
    }


def balance_after(principal: float, annual_rate_pct: float, years: int, months: int) -> float:
    """What is still owed after ``months`` payments."""
    r = annual_rate_pct / 100 / 12
    payment = monthly_payment(principal, annual_rate_pct, years)
    if r == 0:
        return principal - payment * months
    return principal * (1 + r) ** months - payment * ((1 + r) ** months - 1) / r


def chart(inputs: Mapping[str, Any], values: Mapping[str, Any]) -> Chart:
    years = inputs["years"]
    owed = [max(0.0, balance_after(inputs["principal"], inputs["rate"], years, 12 * y)) for y in range(years + 1)]
    return Chart(
        kind="line",
        title="Balance still owed",
        x_label="Year",
        y_label="Dollars",
        labels=[str(y) for y in range(years + 1)],
        series=[{"name": "Balance", "values": [round(v, 2) for v in owed]}],
        summary=f"The balance falls from ${inputs['principal']:,} to zero over {years} years, slowly at first.",
    )


SPEC = Calculator(
    id="loan",
    title="Loan repayment",
    summary="The monthly payment of a fixed-rate loan and the interest it costs in total.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
)
