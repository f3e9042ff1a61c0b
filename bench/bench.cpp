// bench/: the speed figures of docs/bench.md, every one a ratio against a floor measured in the same run.
// A libpq client run by bench/run.sh inside a throwaway cluster (PGHOST etc. set by pg_virtualenv) after
// bench/inner.sh has loaded data/diamonds.csv.gz and data/adult.csv.gz. Prints a markdown report to stdout.
//   mapping:   run_release's private scan (its DEBUG1 timing line) against the floor
//              SELECT sum(c1::float8), sum(c2::float8) FROM t and the exact GROUP BY width_bucket histogram over
//              the same columns and bins, serial and with parallel workers (the scan's plan via auto_explain)
//   mechanism: PMW and MWEM through the grouped workload and both references of pap_release.reference_workload
//              (same test seed, outputs compared)
//   answers:   pap.answer calls per second in one SELECT, against the same SELECT without pap.answer; latency
//              of the first call after run_release
//   memory:    the backend's peak resident memory (VmHWM)
// Usage: bench [--ci]   (--ci: smaller tables, one repetition, no ADULT reference run: well under 4 minutes)
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Session {
	PGconn *conn = nullptr;
	std::vector<std::string> notices;
};

void
OnNotice(void *arg, const PGresult *res)
{
	static_cast<Session *>(arg)->notices.push_back(PQresultErrorMessage(res));
}

[[noreturn]] void
Die(const std::string &what)
{
	std::fprintf(stderr, "bench: %s\n", what.c_str());
	std::exit(1);
}

double
Now()
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class Db {
public:
	Db()
	{
		s_.conn = PQconnectdb("");
		if (PQstatus(s_.conn) != CONNECTION_OK)
			Die(std::string("connection failed: ") + PQerrorMessage(s_.conn));
		PQsetNoticeReceiver(s_.conn, OnNotice, &s_);
		Run("SET client_min_messages = debug1");
	}
	~Db() { PQfinish(s_.conn); }
	Db(const Db &) = delete;
	Db &operator=(const Db &) = delete;

	// Runs sql; returns the first row's first value ("" when none). Dies on error.
	std::string
	Run(const std::string &sql)
	{
		PGresult *res = PQexec(s_.conn, sql.c_str());
		const ExecStatusType st = PQresultStatus(res);
		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
			Die(sql + "\n" + PQresultErrorMessage(res));
		std::string v = st == PGRES_TUPLES_OK && PQntuples(res) > 0 ? PQgetvalue(res, 0, 0) : "";
		PQclear(res);
		return v;
	}
	// Wall time of sql in ms, measured by the client.
	double
	Time(const std::string &sql)
	{
		const double t0 = Now();
		Run(sql);
		return Now() - t0;
	}
	// The value of the first DEBUG1 line since the last call containing key, as "... took X ms".
	double
	TakeTiming(const std::string &key)
	{
		double ms = -1;
		for (const std::string &n : s_.notices) {
			const std::size_t at = n.find(key);
			if (at != std::string::npos && ms < 0) {
				const std::size_t took = n.find(" took ", at);
				if (took != std::string::npos)
					ms = std::atof(n.c_str() + took + 6);
			}
		}
		return ms;
	}
	std::vector<std::string>
	TakeNotices()
	{
		std::vector<std::string> out;
		out.swap(s_.notices);
		return out;
	}
	long
	PeakKiB()
	{
		const std::string status =
		    Run("SELECT pg_catalog.pg_read_file('/proc/' || pg_catalog.pg_backend_pid() || '/status')");
		const std::size_t at = status.find("VmHWM:");
		return at == std::string::npos ? -1 : std::atol(status.c_str() + at + 6);
	}

private:
	Session s_;
};

double
Median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v.empty() ? NAN : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

int release_serial = 0;
// The finest grid whose boxes cover fits the default pap_release.max_cover_queries (alpha's cuts, pinned: the
// figures time the layout alpha builds, not the one granularity auto would choose).
const char *const kMappingAlpha = ", alpha => 0.4, granularity => 'alpha'";

std::string
NewRelease(Db &db, const std::string &table, const std::string &public_table, const std::string &cls,
           const std::string &options)
{
	const std::string name = "r" + std::to_string(++release_serial);
	db.Run("SELECT pap.define_release('" + name + "', '" + table + "', '" + public_table + "', '" + cls + "'" +
	       options + ")");
	return name;
}

// One run_release: returns the mapping and mechanism times from the DEBUG1 lines.
struct RunTimes {
	double mapping, mechanism, wall;
};

RunTimes
RunRelease(Db &db, const std::string &name, const std::string &mechanism = "auto")
{
	db.TakeNotices();
	const double wall = db.Time("CALL pap.run_release('" + name + "', 1.0, mechanism => '" + mechanism + "')");
	RunTimes t{db.TakeTiming("mapping (private scan)"), db.TakeTiming("mechanism ("), wall};
	if (t.mapping < 0 || t.mechanism < 0)
		Die("run_release printed no timing line (is the installed pap_release current?)");
	return t;
}

// The release's cuts of axis a as an SQL float8[] literal.
std::string
CutsOf(Db &db, const std::string &name, int axis)
{
	return db.Run(
	    "SELECT pg_catalog.array_to_string(cuts[coalesce((SELECT sum(c) FROM pg_catalog.unnest(cut_counts[1:" +
	    std::to_string(axis - 1) + "]) c), 0) + 1 : (SELECT sum(c) FROM pg_catalog.unnest(cut_counts[1:" +
	    std::to_string(axis) + "]) c)], ',') FROM pap.release_data WHERE name = '" + name + "'");
}

void
Mapping(const std::vector<long> &sizes, int reps)
{
	std::printf("\n## Mapping: run_release's private scan against the floor\n\n");
	std::printf(
	    "Table t_N(carat float8, price float8): data/diamonds.csv.gz resampled with 1%% jitter. Release: "
	    "boxes(carat, price) with alpha 0.4, public table = every 10th diamond. floor = `SELECT sum(carat::float8), "
	    "sum(price::float8) FROM t_N`; histogram = `SELECT width_bucket(carat, cuts1), width_bucket(price, "
	    "cuts2), count(*) FROM t_N GROUP BY 1, 2` with the release's cuts; mapping = run_release's DEBUG1 "
	    "timing of its scan. Medians of %d run(s), ms; ratios to the floor of the same mode. VmHWM (peak resident "
	    "memory of the backend) counts the shared buffers it touched, i.e. the table's pages.\n\n",
	    reps);
	std::printf("| rows | workers | floor ms | mapping ms | mapping / floor | histogram ms | histogram / floor | "
	            "backend VmHWM MiB |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (long n : sizes) {
		const std::string t = "t_" + std::to_string(n);
		Db db;
		for (int workers : {0, 2}) {
			db.Run("SET max_parallel_workers_per_gather = " + std::to_string(workers));
			std::vector<double> floor, mapping, histogram;
			std::string hist_sql;
			db.Time("SELECT sum(carat::float8), sum(price::float8) FROM " + t);  // warm the cache
			for (int r = 0; r < reps; r++) {
				const std::string name = NewRelease(db, t, "diamonds_public", "boxes(carat, price)", kMappingAlpha);
				if (hist_sql.empty())
					hist_sql = "SELECT width_bucket(carat, '{" + CutsOf(db, name, 1) +
					           "}'::float8[]), width_bucket(price, '{" + CutsOf(db, name, 2) +
					           "}'::float8[]), count(*) FROM " + t + " GROUP BY 1, 2";
				floor.push_back(db.Time("SELECT sum(carat::float8), sum(price::float8) FROM " + t));
				mapping.push_back(RunRelease(db, name).mapping);
				histogram.push_back(db.Time(hist_sql));
			}
			const double f = Median(floor), m = Median(mapping), h = Median(histogram);
			std::printf("| %ld | %d | %.1f | %.1f | **%.2f** | %.1f | %.2f | %.0f |\n", n, workers, f, m, m / f, h,
			            h / f, double(db.PeakKiB()) / 1024);
			std::fflush(stdout);
		}
	}
	// The plan of the scan as run inside run_release (auto_explain logs nested statements at NOTICE).
	const std::string t = "t_" + std::to_string(sizes.back());
	Db db;
	db.Run("LOAD 'auto_explain'");
	db.Run("SET auto_explain.log_min_duration = 0");
	db.Run("SET auto_explain.log_nested_statements = on");
	db.Run("SET auto_explain.log_level = notice");
	db.Run("SET max_parallel_workers_per_gather = 2");
	const std::string name = NewRelease(db, t, "diamonds_public", "boxes(carat, price)", kMappingAlpha);
	db.TakeNotices();
	db.Run("CALL pap.run_release('" + name + "', 1.0)");
	std::printf("\nThe scan inside run_release on %s with max_parallel_workers_per_gather = 2 (auto_explain):\n\n```\n",
	            t.c_str());
	for (const std::string &n : db.TakeNotices())
		if (n.find("grid_counts") != std::string::npos || n.find("pap_release: scan:") != std::string::npos)
			std::printf("%s", n.c_str());
	std::printf("```\n");
}

struct MechanismCase {
	const char *label, *table, *public_table, *cls, *options;
};

void
Mechanism(const std::vector<MechanismCase> &cases)
{
	std::printf("\n## Mechanisms: PMW and MWEM against the reference workloads\n\n");
	std::printf("Same release defined three times, run with pap_release.test_seed = 6 through the grouped workload and "
	            "through each reference of pap_release.reference_workload: membership (the straightforward one: "
	            "every cell tested against every query, query by query, no grouping, no prefix sums) and cell_lists "
	            "(each query's cells listed once, then summed query by query: stronger than the membership reference). "
	            "Times of the mechanism alone, from run_release's DEBUG1 lines (ms; grouped: the median of three "
	            "runs, each reference: one run). Outputs compared cell by cell with the grouped run's.\n\n");
	std::printf("| mechanism | release | cells | cover queries | scan ms | grouped ms | membership ms | membership / "
	            "grouped | cell_lists ms | cell_lists / grouped | max abs difference of the synthetic weights "
	            "(membership, cell_lists) | VmHWM MiB grouped / membership / cell_lists |\n"
	            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	const char *const kinds[3] = {"off", "membership", "cell_lists"};
	for (const MechanismCase &c : cases)
		for (const char *mechanism : {"pmw", "mwem"}) {
			double ms[3], scan_ms = 0;
			long peak[3];
			std::string names[3];
			for (int kind = 0; kind < 3; kind++) {
				// The grouped run takes tens of ms, so its median of three is taken; a reference run takes seconds.
				std::vector<double> runs;
				for (int rep = 0; rep < (kind == 0 ? 3 : 1); rep++) {
					Db db;
					db.Run("SET pap_release.test_seed = 6");
					db.Run(std::string("SET pap_release.reference_workload = ") + kinds[kind]);
					names[kind] = NewRelease(db, c.table, c.public_table, c.cls, c.options);
					const RunTimes times = RunRelease(db, names[kind], mechanism);
					runs.push_back(times.mechanism);
					if (kind == 0)
						scan_ms = times.mapping;
					peak[kind] = db.PeakKiB();
				}
				ms[kind] = Median(runs);
			}
			Db db;
			std::string diff[3];
			for (int kind = 1; kind < 3; kind++)
				diff[kind] = db.Run("SELECT pg_catalog.max(abs(a - b)) FROM pap.release_data x, pap.release_data y, "
				                    "unnest(x.synthetic, "
				                    "y.synthetic) AS u(a, b) WHERE x.name = '" +
				                    names[0] + "' AND y.name = '" + names[kind] + "'");
			const std::string cells =
			    db.Run("SELECT cell_count || ' ' || cover_size FROM pap.release_data WHERE name = '" + names[0] + "'");
			long cell_count = 0, cover = 0;
			std::sscanf(cells.c_str(), "%ld %ld", &cell_count, &cover);
			std::printf("| %s | %s | %ld | %ld | %.1f | %.1f | %.1f | **%.1f** | %.1f | **%.1f** | %s, %s | %.0f / "
			            "%.0f / %.0f |\n",
			            mechanism, c.label, cell_count, cover, scan_ms, ms[0], ms[1], ms[1] / ms[0], ms[2],
			            ms[2] / ms[0], diff[1].c_str(), diff[2].c_str(), double(peak[0]) / 1024, double(peak[1]) / 1024,
			            double(peak[2]) / 1024);
			std::fflush(stdout);
		}
}

// The first pap.answer of a release with about 1e5 cells (the size docs/bench.md targets), after run_release in the
// same session and in a new session (which also pays for its first touch of the memory), for an ordered class
// (thresholds, the finest public grid of t_100000) and a product one (orthants over a 321 x 321 grid).
void
FirstCalls()
{
	struct Case {
		const char *label, *cls, *options, *query;
	};
	const Case cases[] = {
	    {"thresholds(carat), every public value of t_100000", "thresholds(carat)", ", granularity => 'finest'",
	     "carat < 1"},
	    {"orthants(carat, price), alpha 0.025 (320 public quantiles per axis of t_100000)", "orthants(carat, price)",
	     ", alpha => 0.025, granularity => 'alpha'", "carat <= 1 AND price <= 2000"},
	};
	std::printf("\nFirst `pap.answer` call of a release of about 1e5 cells (private t_1000000, public t_100000):\n\n"
	            "| release | cells | first call after run_release ms | first call in a new session ms | next call ms "
	            "|\n|---|---:|---:|---:|---:|\n");
	for (const Case &c : cases) {
		std::string name, cells;
		double after_run = 0;
		{
			Db db;
			name = NewRelease(db, "t_1000000", "t_100000", c.cls, c.options);
			db.Run("CALL pap.run_release('" + name + "', 1.0)");
			after_run = db.Time("SELECT pap.answer('" + name + "', '" + c.query + "')");
			cells = db.Run("SELECT cell_count FROM pap.release_data WHERE name = '" + name + "'");
		}
		Db fresh;
		fresh.Run("SELECT pap.cell_index('{1}', 1)");  // the module loaded: only the release's first load is timed
		const double first = fresh.Time("SELECT pap.answer('" + name + "', '" + c.query + "')");
		const double next = fresh.Time("SELECT pap.answer('" + name + "', '" + c.query + "')");
		std::printf("| %s | %s | **%.2f** | %.2f | %.2f |\n", c.label, cells.c_str(), after_run, first, next);
		std::fflush(stdout);
	}
}

void
Answers(long calls)
{
	std::printf("\n## Answers: pap.answer in one SELECT\n\n");
	Db db;
	const std::string name = NewRelease(db, "t_100000", "diamonds_public", "boxes(carat, price)", kMappingAlpha);
	db.Run("CALL pap.run_release('" + name + "', 1.0)");
	const double first = db.Time("SELECT pap.answer('" + name + "', 'carat <= 1 AND price <= 2000')");
	const double second = db.Time("SELECT pap.answer('" + name + "', 'carat <= 1.5 AND price <= 3000')");
	const double roundtrip = db.Time("SELECT 1");
	const std::string query = "'carat > ' || (0.2 + (i % 50) * 0.02) || ' AND carat <= ' || (1 + (i % 70) * 0.03) || "
	                          "' AND price <= ' || (500 + (i % 97) * 150)";
	const std::string n = std::to_string(calls);
	const double floor = db.Time("SELECT count(length(" + query + ")) FROM generate_series(1, " + n + ") i");
	const double answer =
	    db.Time("SELECT count(pap.answer('" + name + "', " + query + ")) FROM generate_series(1, " + n + ") i");
	const std::string cells = db.Run("SELECT cell_count FROM pap.release_data WHERE name = '" + name + "'");
	std::printf("2-D boxes release over t_100000 (%s cells). `SELECT count(pap.answer(name, <box text>)) FROM "
	            "generate_series(1, %s) i` against the floor: the same SELECT with length(<box text>).\n\n",
	            cells.c_str(), n.c_str());
	std::printf("| calls | floor ms | answer ms | answer / floor | calls per second | first call after run_release "
	            "ms | second call ms | SELECT 1 round trip ms |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	std::printf("| %s | %.1f | %.1f | %.1f | **%.0f** | %.2f | %.2f | %.2f |\n", n.c_str(), floor, answer,
	            answer / floor, double(calls) / (answer / 1000), first, second, roundtrip);
	FirstCalls();
}

}  // namespace

int
main(int argc, char **argv)
{
	const bool ci = argc > 1 && std::strcmp(argv[1], "--ci") == 0;
	const std::vector<long> sizes =
	    ci ? std::vector<long>{100000, 1000000} : std::vector<long>{100000, 1000000, 3000000};
	{
		Db db;
		std::printf("PostgreSQL: %s\n", db.Run("SELECT version()").c_str());
		db.Run("SET client_min_messages = warning");
		for (long n : sizes) {
			const std::string t = "t_" + std::to_string(n);
			// Resampled rows of the diamonds, each value moved by up to 0.5% either way; reproducible (setseed).
			db.Run("DROP TABLE IF EXISTS " + t);
			db.Run("SELECT setseed(0.6)");
			db.Run("CREATE TABLE " + t +
			       " AS SELECT d.carat * (1 + (random() - 0.5) / 100) AS carat, "
			       "d.price * (1 + (random() - 0.5) / 100) AS price FROM (SELECT 1 + floor(random() * "
			       "(SELECT count(*) FROM diamonds))::int8 AS id FROM generate_series(1, " +
			       std::to_string(n) + ")) s JOIN diamonds d USING (id)");
			db.Run("VACUUM ANALYZE " + t);
			db.Run("SELECT pap.set_budget('" + t + "', 1e9)");
		}
	}
	const int reps = ci ? 1 : 3;
	Mapping(sizes, reps);
	// The reference keeps every (query, cell) pair: alpha 0.5 gives ~4e5 boxes over ~1200 cells (~2e8 bytes).
	std::vector<MechanismCase> cases = {
	    ci ? MechanismCase{"boxes(carat, price), t_100000, alpha 0.8", "t_100000", "diamonds_public",
	                       "boxes(carat, price)", ", alpha => 0.8, granularity => 'alpha'"}
	       : MechanismCase{"boxes(carat, price), t_100000, alpha 0.5", "t_100000", "diamonds_public",
	                       "boxes(carat, price)", ", alpha => 0.5, granularity => 'alpha'"},
	};
	if (!ci)
		cases.push_back({"ADULT marginals(3; 14 columns), public support", "adult_private", "adult_public",
		                 "marginals(3; age, workclass, fnlwgt, \"education-num\", \"marital-status\", occupation, "
		                 "relationship, race, sex, \"capital-gain\", \"capital-loss\", \"hours-per-week\", "
		                 "\"native-country\", \"income>50K\")",
		                 ""});
	Mechanism(cases);
	Answers(ci ? 20000 : 200000);
	return 0;
}
