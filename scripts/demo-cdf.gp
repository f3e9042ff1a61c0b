# The demo's picture (scripts/demo-inner.sh): the released CDF of price against the exact private one and the
# public sample's, and below it each curve's error against the exact one, at every price either table holds.
# Variables: in (rows "t released exact public_only", as scripts/demo.sql writes them), out (PNG), epsilon,
# private_rows, public_rows, day.
set terminal pngcairo size 900,700 noenhanced
set output out

stats in using (abs($2 - $3)) name "released_error" nooutput
stats in using (abs($4 - $3)) name "public_error" nooutput

set multiplot layout 2,1 title sprintf("diamonds: P(price <= t) released with epsilon = %s (%s private rows, %s public rows), %s", \
	epsilon, private_rows, public_rows, day)
set logscale x
set xrange [300:20000]
set grid
set key left top

set ylabel "P(price <= t)"
set yrange [0:1]
set format x ""
plot in using 1:3 with steps lw 4 lc rgb "#bbbbbb" title "exact (private table, never released)", \
	in using 1:4 with steps lw 1.5 lc rgb "#e08000" title "public sample alone", \
	in using 1:2 with steps lw 1.5 lc rgb "#0050c0" title "released (pap.answer)"

set ylabel "error against exact"
set xlabel "price t (dollars, log scale)"
set format x "%g"
set yrange [-0.05:0.05]
set key left bottom
plot 0 with lines lc rgb "#888888" notitle, \
	in using 1:($4 - $3) with steps lw 1.5 lc rgb "#e08000" title sprintf("public sample alone: max |error| %.4f", public_error_max), \
	in using 1:($2 - $3) with steps lw 1.5 lc rgb "#0050c0" title sprintf("released: max |error| %.4f", released_error_max)
unset multiplot
