# The plot of eval/labels.sh: held-out accuracy of the final model against epsilon, per data set, with the
# baselines. Variables: in (columns: epsilon, then per data set: labelling cells, labelling logistic, logistic
# without privacy, majority class, private-only noisy cells, cells without privacy), out (PNG).
set terminal pngcairo size 1000,420 noenhanced
set output out
set multiplot layout 1,2
set xlabel "epsilon"
set ylabel "accuracy on held-out private rows"
set logscale x
set xrange [0.4:5]
set xtics ("0.5" 0.5, "1" 1, "2" 2, "4" 4)
set yrange [0.45:0.9]
set grid
set key bottom right font ",8"
set datafile missing "NaN"
set title "ADULT (income>50K)"
plot in using 1:2 with linespoints title "labelling, cells", in using 1:3 with linespoints title "labelling, logistic", \
     in using 1:4 with lines dt 2 title "logistic, no privacy", in using 1:7 with lines dt 3 title "cells, no privacy", \
     in using 1:5 with lines dt 4 title "majority class", in using 1:6 with linespoints title "private-only noisy cells"
set title "CPS1988 (wage above the public median)"
plot in using 1:8 with linespoints title "labelling, cells", in using 1:9 with linespoints title "labelling, logistic", \
     in using 1:10 with lines dt 2 title "logistic, no privacy", in using 1:13 with lines dt 3 title "cells, no privacy", \
     in using 1:11 with lines dt 4 title "majority class", in using 1:12 with linespoints title "private-only noisy cells"
unset multiplot
