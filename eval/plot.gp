# One plot of the harness (eval/run.sh): mean maximum error against epsilon, one line per method, log scales.
# Variables: in (data file written by pap_eval report: epsilon, then one column per method), out (PNG), name, columns
# (how many columns in holds: every method is plotted, auto the last; an iteration to * stops at a column of NaN).
set terminal pngcairo size 800,500 noenhanced
set output out
set title name
set xlabel "epsilon"
set ylabel "mean of the maximum error (fraction of n)"
set logscale xy
set xrange [0.08:2.5]
set key outside right
set grid
set datafile missing "NaN"
plot for [i=2:columns] in using 1:i with linespoints title columnhead(i)
