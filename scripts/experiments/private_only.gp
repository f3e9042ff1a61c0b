# Plots the private-only check (scripts/experiments/private_only.sh): left, the interior-point rate of the
# exponential-mechanism median against n over the n of its guarantee; right, the CDF error of price with and
# without the public table. Reads build/interior_point.csv and build/private_only.csv; writes
# docs/eval/private-only.png.
set terminal pngcairo size 1200,450 font ",10"
set output 'docs/eval/private-only.png'
set datafile separator ','
set multiplot layout 1,2
set title 'Interior point: exponential-mechanism median (epsilon 1, beta 0.05)'
set xlabel 'n / ((4/epsilon) ln(|X|/beta))'
set ylabel 'share of runs between min and max'
set yrange [0:1.05]
set key bottom right
set grid
set arrow from 1, graph 0 to 1, graph 1 nohead dashtype 2
set arrow from graph 0, first 0.95 to graph 1, first 0.95 nohead dashtype 3
plot 'build/interior_point.csv' using ($1 == 100 ? $4 : 1/0):8 with linespoints title '|X| = 100', \
     '' using ($1 == 1000 ? $4 : 1/0):8 with linespoints title '|X| = 1000', \
     '' using ($1 == 10000 ? $4 : 1/0):8 with linespoints title '|X| = 10000'
unset arrow
set title 'diamonds thresholds(price): max CDF error (mean of runs)'
set xlabel 'epsilon'
set ylabel 'max |released - true| over price <= v, v = 0..20000 by 10'
set logscale xy
set yrange [*:*]
set key top right
plot 'build/private_only.csv' using (strcol(1) eq 'assisted' ? $2 : 1/0):3 with linespoints title 'public table (10%), auto', \
     '' using (strcol(1) eq 'declared_step10' ? $2 : 1/0):3 with linespoints title 'declared 0..20000 by 10, auto', \
     '' using (strcol(1) eq 'declared_step1' ? $2 : 1/0):3 with linespoints title 'declared 0..20000 by 1, auto (hierarchical)'
unset multiplot
