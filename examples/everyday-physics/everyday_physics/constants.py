"""The physical constants the course uses, each with where it is published.

Surface gravity is the one input the three worlds of the course differ by; a reader chooses the
world, and every calculator that falls or swings under gravity takes its value from here.
"""

from __future__ import annotations

#: Standard acceleration of gravity, exact by definition (3rd CGPM, 1901):
#: https://physics.nist.gov/cgi-bin/cuu/Value?gn — "9.806 65 m s^-2 (exact)".
STANDARD_GRAVITY = 9.80665

#: Surface gravity by world (m/s²), as NASA's planetary fact sheets give it: the Moon,
#: https://nssdc.gsfc.nasa.gov/planetary/factsheet/moonfact.html ("Surface gravity (m/s^2) 1.62");
#: Mars, https://nssdc.gsfc.nasa.gov/planetary/factsheet/marsfact.html ("Surface gravity (m/s^2) 3.71").
#: Earth: the standard value above (the local one is 9.78 at the equator to 9.83 at the poles).
GRAVITY = {
    "earth": 9.80665,
    "moon": 1.62,
    "mars": 3.71,
}
WORLDS = (("earth", "Earth (9.81 m/s²)"), ("moon", "the Moon (1.62 m/s²)"), ("mars", "Mars (3.71 m/s²)"))

#: Specific heat capacity of liquid water at 25 °C and 1 bar, J/(kg·K): 4.1813 J/(g·K) in the NIST
#: Chemistry WebBook's thermophysical properties of water (the IAPWS-95 formulation, Wagner and
#: Pruss, J. Phys. Chem. Ref. Data 31, 387 (2002)), isobar at 1 bar:
#: https://webbook.nist.gov/cgi/fluid.cgi?ID=C7732185&Action=Page (Cp). From 10 °C to 100 °C it
#: stays within 4.18–4.22 J/(g·K), so one value serves the whole kettle, within 1 %.
WATER_SPECIFIC_HEAT = 4181.3

#: Water's density taken as 1 kg per litre (0.9982 kg/L at 20 °C, 0.9584 at 100 °C): a litre in
#: the kettle is a kilogram, within 4 %.
WATER_KG_PER_LITRE = 1.0

#: One kilowatt-hour in joules (3.6 MJ, exact: 1000 W × 3600 s).
JOULES_PER_KWH = 3.6e6
