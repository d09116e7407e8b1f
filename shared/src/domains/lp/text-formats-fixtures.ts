/**
 * Realistic CPLEX LP and free MPS texts for the format tests, each with what is known of it.
 * Not part of the public surface (tests import it directly).
 */

/**
 * Chvátal's diet problem (Linear Programming, 1983, ch. 1): servings of six foods meeting energy
 * (kcal), protein (g) and calcium (mg) at least cost in cents. The optimum is 92.5: 4 oatmeal,
 * 4.5 milk, 2 pie (energy 2000, protein 60, calcium 1334.5).
 */
export const DIET_LP = String.raw`\ Chvatal's diet problem
\ costs in cents per serving
MINIMIZE
 cost: 3 oatmeal + 24 chicken + 13 eggs + 9 milk + 20 pie + 19 pork_beans
SUBJECT TO
 energy:  110 oatmeal + 205 chicken + 160 eggs + 160 milk + 420 pie
          + 260 pork_beans >= 2000
 protein: 4 oatmeal + 32 chicken + 13 eggs + 8 milk + 4 pie + 14 pork_beans >= 55
 calcium: 2 oatmeal + 12 chicken + 54 eggs + 285 milk + 22 pie + 80 pork_beans >= 800
BOUNDS
 oatmeal <= 4
 chicken <= 3
 eggs <= 2
 milk <= 8
 pie <= 2
 pork_beans <= 2
END
`;

/** The same problem in free MPS. */
export const DIET_MPS = `* Chvatal's diet problem
NAME          DIET
ROWS
 N  cost
 G  energy
 G  protein
 G  calcium
COLUMNS
    oatmeal     cost   3     energy   110
    oatmeal     protein 4    calcium  2
    chicken     cost   24    energy   205
    chicken     protein 32   calcium  12
    eggs        cost   13    energy   160
    eggs        protein 13   calcium  54
    milk        cost   9     energy   160
    milk        protein 8    calcium  285
    pie         cost   20    energy   420
    pie         protein 4    calcium  22
    pork_beans  cost   19    energy   260
    pork_beans  protein 14   calcium  80
RHS
    RHS  energy 2000  protein 55
    RHS  calcium 800
BOUNDS
 UP BND oatmeal 4
 UP BND chicken 3
 UP BND eggs 2
 UP BND milk 8
 UP BND pie 2
 UP BND pork_beans 2
ENDATA
`;

/**
 * Dantzig's transportation problem as in GAMS's trnsport model (cost in thousands of dollars:
 * $90 per case per thousand miles): two plants, three markets. The known optimum is 153.675,
 * shipping exactly each market's demand. Here the market rows are ranged (each optimum's
 * shipment lies inside its range, so the optimum stays 153.675), shipments are integer between
 * markers with explicit bounds, and a second N row (distance) is read and dropped.
 */
export const TRANSPORT_MPS = `* trnsport with ranged demand rows
NAME TRANSPORT
ROWS
 N  cost
 N  distance
 L  supply_seattle
 L  supply_san_diego
 E  demand_new_york
 G  demand_chicago
 E  demand_topeka
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x_sea_ny   cost  0.225   supply_seattle  1
    x_sea_ny   demand_new_york 1   distance 2.5
    x_sea_chi  cost  0.153   supply_seattle  1
    x_sea_chi  demand_chicago 1    distance 1.7
    x_sea_top  cost  0.162   supply_seattle  1
    x_sea_top  demand_topeka 1     distance 1.8
    x_sd_ny    cost  0.225   supply_san_diego 1
    x_sd_ny    demand_new_york 1   distance 2.5
    x_sd_chi   cost  0.162   supply_san_diego 1
    x_sd_chi   demand_chicago 1    distance 1.8
    x_sd_top   cost  0.126   supply_san_diego 1
    x_sd_top   demand_topeka 1     distance 1.4
    MARKER                 'MARKER'                 'INTEND'
RHS
    RHS  supply_seattle 350   supply_san_diego 600
    RHS  demand_new_york 325  demand_chicago 300
    RHS  demand_topeka 300    distance 99
RANGES
    RNG  demand_new_york 50   demand_chicago -100
    RNG  demand_topeka -25    supply_seattle 350
BOUNDS
 UP BND x_sea_ny  1000
 UP BND x_sea_chi 1000
 UP BND x_sea_top 1000
 UP BND x_sd_ny   1000
 UP BND x_sd_chi  1000
 PL BND x_sd_top
ENDATA
`;

/** maximize 3x + 2y s.t. x + y ≤ 4, x + 3y ≤ 6, 0 ≤ x ≤ 3, y ≥ 0: optimum 11 at (3, 1). */
export const SMALL_MAX_LP = `Maximize
 profit: 3 x + 2 y
Subject To
 c1: x + y <= 4
 c2: x + 3 y <= 6
Bounds
 x <= 3
End
`;

/** maximize 5x + 4y s.t. 6x + 4y ≤ 24, x + 2y ≤ 6, x, y ≥ 0 integer: optimum 20 at (4, 0) (the LP relaxation's is 21). */
export const SMALL_MILP_LP = `Maximize
 obj: 5 x + 4 y
Subject To
 c1: 6 x + 4 y <= 24
 c2: x + 2 y <= 6
General
 x y
End
`;

/**
 * minimize x − y + z/3 + 5/2 s.t. x + y + z = 3, x − y ≥ −1, −2 ≤ x ≤ 2, y free, 0 ≤ z ≤ 5:
 * optimum −1 + 5/2 = 3/2 at (1, 2, 0). (y = 3 − x − z turns it into min 2x + 4z/3 − 3 with
 * 2x + z ≥ 2, whose minimum 2 is at 2x = 2, z = 0.)
 */
export const SMALL_FREE_LP = `Minimize
 obj: x - y + 1/3 z + 5/2
Subject To
 balance: x + y + z = 3
 gap: x - y >= -1
Bounds
 -2 <= x <= 2
 y free
 z <= 5
End
`;
