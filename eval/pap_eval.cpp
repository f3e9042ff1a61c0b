// pap_eval: the accuracy harness of pap_release (docs/eval.md), a libpq client.
//
//   pap_eval run [--ci] OUT.csv      runs every experiment against the database named by the PG* environment
//                                    variables (eval/run-inner.sh loads the data and eval/eval.sql first) and
//                                    writes one CSV row per run.
//   pap_eval bounds [--ci] OUT.csv   the same releases' (auto) error bounds: how many answers of each workload lie
//                                    within pap.answer_bounded's [lower, upper] (docs/eval-bounds.md).
//   pap_eval report IN.csv DOC.md DIR [IMG]  checks that IN.csv is well formed and complete, writes the results
//                                    tables (DOC.md: eval/eval-doc.md with its @RESULTS@ line replaced) and the
//                                    gnuplot data files DIR/<workload>-<fraction>-<regime>.dat (the PNGs are
//                                    linked as IMG<same name>.png, IMG relative to DOC.md); exits 1 if a row is
//                                    malformed, a run failed with an unexpected error, or a cell lacks a method.
//
// Every data operation is SQL in eval/eval.sql; this client only loops over the cells, sets the test seed,
// tells a mechanism that does not apply (SQLSTATE 22023 from pap.run_release: "n/a") and a class refused at
// every granularity (54000 from pap.define_release: "refused") from a failure ("error"), times the runs and
// writes and summarises the results.
#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A class over columns of a data set; its random query set is drawn by pap_eval.add_workload (eval/eval.sql).
struct Workload {
	std::string ds;
	std::string name;  // <data set>-<kind>[k]: names the rows of the CSV, the tables and the plots
	std::string kind;  // thresholds, ranges, boxes, orthants, marginals, predicates
	std::vector<std::string> numcols, catcols;
	int k = 0;        // marginals
	int queries = 0;  // size of the random query set
};

struct DatasetPlan {
	std::vector<double> fractions, epsilons;
};

struct Config {
	bool ci = false;
	int reps = 5;
	int first_rep = 1;  // PAP_EVAL_FIRST_REP: repetitions first_rep..reps (more repetitions appended to a run)
	int max_cover_queries = 300000;
	int grid_max_per_axis = 10000;  // lowered per workload until the grid's release fits the limits
	std::map<std::string, DatasetPlan> plans;
	std::vector<Workload> workloads;
	std::vector<std::string> adult_columns;
	std::set<std::string> methods;  // PAP_EVAL_METHODS: only these (empty: all)
};

// Methods, in table order. "public" spends nothing; "margtables" is computed in SQL; the others are pap
// releases.
struct Method {
	const char *name;
	const char *mechanism;
	const char *prior;
	const char *table;  // "grid" (data-independent), "public" (the public sample), "support" (public support),
	                    // "none" (no release)
};
const Method kMethods[] = {
    {"public", "", "", "none"},
    {"identity", "identity", "", "grid"},
    {"hierarchical", "hierarchical", "", "grid"},
    {"mwem", "mwem", "uniform", "grid"},
    {"margtables", "", "", "none"},
    {"pmwpub", "mwem", "public", "support"},
    {"pmw_support", "pmw", "public", "support"},
    {"pmw", "pmw", "public", "public"},
    {"marginal_tables", "marginal_tables", "public", "public"},
    {"auto", "auto", "public", "public"},
};
const std::vector<std::string> kOrder{"public",      "identity", "hierarchical",    "mwem", "margtables", "pmwpub",
                                      "pmw_support", "pmw",      "marginal_tables", "auto"};
// Baselines (the best of these is what auto is compared with); pmw and auto are ours.
const std::set<std::string> kBaselines{"public",     "identity", "hierarchical", "mwem",
                                       "margtables", "pmwpub",   "pmw_support"};

const char *kHeader =
    "dataset,workload,class,public_frac,regime,epsilon,rep,method,mechanism,prior,status,max_error,"
    "mean_error,predicted_error,chosen,queries,cover_size,cell_count,domain,alpha,n,m,"
    "grid_per_axis,seed,seconds,projection_error,outside_mass_error,noise_error,prior_error,answer_mode";

struct Result {
	PGresult *res;
	std::string sqlstate;
	std::string message;
	bool ok;
};

class Db {
public:
	Db()
	{
		conn_ = PQconnectdb("");
		if (PQstatus(conn_) != CONNECTION_OK) {
			std::cerr << "pap_eval: cannot connect: " << PQerrorMessage(conn_);
			std::exit(2);
		}
	}
	~Db() { PQfinish(conn_); }

	// Runs one statement; never exits.
	Result
	Try(const std::string &sql)
	{
		Result r{PQexec(conn_, sql.c_str()), "", "", false};
		ExecStatusType st = PQresultStatus(r.res);
		r.ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
		if (!r.ok) {
			const char *s = PQresultErrorField(r.res, PG_DIAG_SQLSTATE);
			r.sqlstate = s ? s : "";
			const char *m = PQresultErrorField(r.res, PG_DIAG_MESSAGE_PRIMARY);
			r.message = m ? m : PQerrorMessage(conn_);
		}
		return r;
	}

	// Runs one statement that must succeed; returns the first value of the first row ("" if none).
	std::string
	Must(const std::string &sql)
	{
		Result r = Try(sql);
		if (!r.ok) {
			std::cerr << "pap_eval: " << r.sqlstate << " " << r.message << "\n  in: " << sql.substr(0, 300) << "\n";
			PQclear(r.res);
			std::exit(2);
		}
		std::string v;
		if (PQntuples(r.res) > 0 && PQnfields(r.res) > 0 && !PQgetisnull(r.res, 0, 0))
			v = PQgetvalue(r.res, 0, 0);
		PQclear(r.res);
		return v;
	}

	std::string
	Quote(const std::string &s)
	{
		char *q = PQescapeLiteral(conn_, s.c_str(), s.size());
		std::string out(q);
		PQfreemem(q);
		return out;
	}

private:
	PGconn *conn_;
};

std::string
Num(double x)
{
	char b[64];
	std::snprintf(b, sizeof b, "%.10g", x);
	return b;
}

// Seed of a run from its coordinates (FNV-1a), in the range of pap_release.test_seed.
int
SeedOf(const std::string &key)
{
	uint64_t h = 1469598103934665603ull;
	for (unsigned char c : key) {
		h ^= c;
		h *= 1099511628211ull;
	}
	return static_cast<int>(h % 2147483647ull);
}

// Sizes of the ADULT columns from data/adult-domain.json ({"name": size, ...}).
std::map<std::string, int>
ReadAdultDomain(const std::string &path)
{
	std::ifstream in(path);
	std::stringstream ss;
	ss << in.rdbuf();
	std::string text = ss.str();
	std::map<std::string, int> out;
	std::regex re("\"([^\"]+)\"\\s*:\\s*([0-9]+)");
	for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
		out[(*it)[1]] = std::stoi((*it)[2]);
	if (out.empty()) {
		std::cerr << "pap_eval: cannot read " << path << "\n";
		std::exit(2);
	}
	return out;
}

// The published domain information of eval/domains: "bounds DS COL LO HI" and "levels DS COL V1,V2,..."
// lines (a level may hold spaces: the list is the rest of the line), '#' comments.
std::vector<std::vector<std::string>>
ReadDomains(const std::string &path)
{
	std::ifstream in(path);
	std::vector<std::vector<std::string>> rows;
	std::string line;
	while (std::getline(in, line)) {
		if (line.empty() || line[0] == '#')
			continue;
		std::istringstream ls(line);
		std::vector<std::string> f;
		std::string w;
		while (f.size() < 3 && ls >> w)
			f.push_back(w);
		if (!f.empty() && f[0] == "levels" && std::getline(ls >> std::ws, w) && !w.empty())
			f.push_back(w);
		while (ls >> w)
			f.push_back(w);
		if ((f.size() == 5 && f[0] == "bounds") || (f.size() == 4 && f[0] == "levels") ||
		    (f.size() == 3 && f[0] == "notnull"))
			rows.push_back(f);
		else {
			std::cerr << "pap_eval: " << path << ": malformed line: " << line << "\n";
			std::exit(2);
		}
	}
	return rows;
}

std::string
SqlArray(Db &db, const std::vector<std::string> &v)
{
	std::string out = "ARRAY[";
	for (size_t i = 0; i < v.size(); i++)
		out += (i ? "," : "") + db.Quote(v[i]);
	return out + "]::text[]";
}

// One run of one method on one cell; fills the CSV fields it knows.
struct Row {
	std::string status = "ok", max_e, mean_e, pred, chosen, csize, cells, domain, alpha;
	std::string parts = ",,,,";  // pap.plan's projection, outside mass, noise and prior parts and answer mode
	int grid_m = 0;
	bool refine = false;  // a grid release whose cells hold several grid points: answer with refinement
};

class Runner {
public:
	Runner(Db &db, const Config &cfg) : db_(db), cfg_(cfg) {}

	// Defines release 'r' on `table` with the first granularity that fits the limits; false with status
	// "refused" when none does, "error" on any other failure. With `listed_cover` (a mechanism that runs over
	// a listed cover: PMW, MWEM), a granularity whose cover is above pap_release.max_cover_queries does not
	// fit either (the definition accepts it, the run would not: query-classes.md, "Covers too large to
	// list"), so the baseline gets the finest cuts it can run on; when no granularity's cover is listed, the
	// last one defined stays (the run reports n/a).
	bool
	Define(const std::string &priv, const std::string &table, const Workload &w, const std::vector<std::string> &tries,
	       Row &row, const std::string &key, bool listed_cover = false)
	{
		const std::string *last_defined = nullptr;
		for (const std::string &t : tries) {
			if (!DefineOnce(priv, table, w, t)) {
				if (last_sqlstate_ != "54000") {
					std::cerr << "pap_eval: " << key << ": define: " << last_sqlstate_ << " " << last_message_ << "\n";
					row.status = "error";
					return false;
				}
				continue;
			}
			if (!listed_cover || CoverIsListed())
				return true;
			last_defined = &t;
			db_.Must("SELECT pap.drop_release('r')");
		}
		if (last_defined != nullptr && DefineOnce(priv, table, w, *last_defined))
			return true;
		row.status = "refused";
		return false;
	}

	// Whether release 'r''s cover is at most pap_release.max_cover_queries (PMW and MWEM can run on it).
	bool
	CoverIsListed()
	{
		return db_.Must("SELECT cover_size <= current_setting('pap_release.max_cover_queries')::bigint "
		                "FROM pap.releases WHERE name = 'r'") == "t";
	}

	// The data-independent grid of the cell: Qardaji et al.'s resolution, halved while the release over it is
	// refused (54000) at the limits. With r points per grid cell, the cut points are every r-th value (alpha =
	// 4 s / m: each bin holds 1 / m of the grid's values on its axis, docs/query-classes.md), so the release has
	// the m cells per axis and pap.answer's refinement interpolates within them; with r = 1 or 4 s >= m, every
	// grid point is a cut. Leaves release 'r' defined on it; returns false if even 2 per axis fails. With
	// `listed_cover` (MWEM), the resolution is also halved while the cover is above
	// pap_release.max_cover_queries, which MWEM cannot run on (a practitioner takes the finest grid it runs on).
	bool
	DefineOnGrid(const Workload &w, int wid, double eps, const std::string &n, const std::string &priv, Row &row,
	             const std::string &key, bool listed_cover = false)
	{
		int cap = cfg_.grid_max_per_axis;
		const int d = static_cast<int>(w.numcols.size());
		const int s = w.kind == "thresholds" ? 1 : w.kind == "ranges" ? 2 : w.kind == "orthants" ? d : 2 * d;
		for (;;) {
			Result g = db_.Try("SELECT * FROM pap_eval.grid(" + std::to_string(wid) + ", " + Num(eps) + ", " + n +
			                   ", " + std::to_string(cap) + ")");
			if (!g.ok) {
				std::cerr << "pap_eval: " << key << ": grid: " << g.message << "\n";
				PQclear(g.res);
				row.status = "error";
				return false;
			}
			row.grid_m = std::atoi(PQgetvalue(g.res, 0, 0));
			const int r = std::atoi(PQgetvalue(g.res, 0, 1));
			PQclear(g.res);
			const double alpha = 4.0 * s / std::max(1, row.grid_m) * (1 + 1e-9);
			const bool by_alpha = r > 1 && alpha < 1;
			Row attempt;
			// The baseline's resolution is the grid's own: alpha's cuts, pinned (granularity auto would replan them).
			if (Define(priv, "grid", w,
			           {by_alpha ? "alpha => " + Num(alpha) + ", granularity => 'alpha'"
			                     : std::string("granularity => 'finest'")},
			           attempt, key)) {
				row.refine = by_alpha;
				if (!listed_cover || row.grid_m <= 2 || CoverIsListed())
					return true;
				db_.Must("SELECT pap.drop_release('r')");
				cap = row.grid_m / 2;
				continue;
			}
			if (attempt.status != "refused" || row.grid_m <= 2) {
				row.status = attempt.status;
				return false;
			}
			cap = row.grid_m / 2;
		}
	}

	std::map<std::string, std::string> class_text_;

private:
	// One pap.define_release of release 'r'; on failure its SQLSTATE and message are kept.
	bool
	DefineOnce(const std::string &priv, const std::string &table, const Workload &w, const std::string &granularity)
	{
		Result r = db_.Try("SELECT pap.define_release('r', " + db_.Quote(priv) + ", " + db_.Quote(table) + ", " +
		                   db_.Quote(class_text_.at(w.name)) + ", " + granularity + ")");
		PQclear(r.res);
		last_sqlstate_ = r.sqlstate;
		last_message_ = r.message;
		return r.ok;
	}

	Db &db_;
	const Config &cfg_;
	std::string last_sqlstate_, last_message_;
};

// The published domains and every workload's query set (pap_eval.add_workload), the class texts in runner;
// returns each workload's id by name.
std::map<std::string, int>
LoadWorkloads(Db &db, const Config &cfg, Runner &runner)
{
	// ADULT's integer-coded columns (pap_eval.adult names) and their sizes in data/adult-domain.json.
	const std::map<std::string, std::string> adult_json_name{{"workclass", "workclass"},
	                                                         {"education", "education-num"},
	                                                         {"marital", "marital-status"},
	                                                         {"race", "race"},
	                                                         {"sex", "sex"},
	                                                         {"income", "income>50K"}};
	std::map<std::string, int> dom = ReadAdultDomain("data/adult-domain.json");
	for (const auto &[col, json] : adult_json_name)
		for (int v = 0; v < dom.at(json); v++)
			db.Must("INSERT INTO pap_eval.levels VALUES ('adult', " + db.Quote(col) + ", '" + std::to_string(v) + "')");
	for (const auto &f : ReadDomains("eval/domains")) {
		if (f[0] == "bounds")
			db.Must("INSERT INTO pap_eval.bounds VALUES (" + db.Quote(f[1]) + ", " + db.Quote(f[2]) + ", " + f[3] +
			        ", " + f[4] + ")");
		else if (f[0] == "notnull")
			db.Must("INSERT INTO pap_eval.not_null VALUES (" + db.Quote(f[1]) + ", " + db.Quote(f[2]) + ")");
		else
			db.Must("INSERT INTO pap_eval.levels SELECT " + db.Quote(f[1]) + ", " + db.Quote(f[2]) +
			        ", unnest(string_to_array(" + db.Quote(f[3]) + ", ','))");
	}
	db.Must("SELECT pap_eval.declare_level_types()");
	const auto t0 = std::chrono::steady_clock::now();
	std::map<std::string, int> wid_of;
	for (size_t i = 0; i < cfg.workloads.size(); i++) {
		const Workload &w = cfg.workloads[i];
		const int wid = static_cast<int>(i) + 1;
		wid_of[w.name] = wid;
		db.Must("SELECT pap_eval.add_workload(" + std::to_string(wid) + ", " + db.Quote(w.ds) + ", " +
		        db.Quote(w.name) + ", " + db.Quote(w.kind) + ", " + SqlArray(db, w.numcols) + ", " +
		        SqlArray(db, w.catcols) + ", " + std::to_string(w.k) + ", " + std::to_string(w.queries) + ", 0.5)");
		runner.class_text_[w.name] =
		    db.Must("SELECT class_text FROM pap_eval.workloads WHERE wid = " + std::to_string(wid));
	}
	std::cerr << "pap_eval: query sets ready in "
	          << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
	return wid_of;
}

int
Run(const Config &cfg, const std::string &out_path)
{
	Db db;
	// Errors only: random workloads name categories the public sample never shows, and the baselines force
	// mechanisms predicted worse than it, each a WARNING (docs/reference.md, "Warnings and pap_release.strict").
	db.Must("SET client_min_messages = error");
	Runner runner(db, cfg);
	auto t0 = std::chrono::steady_clock::now();
	const std::map<std::string, int> wid_of = LoadWorkloads(db, cfg, runner);
	db.Must("SET pap_release.max_cover_queries = " + std::to_string(cfg.max_cover_queries));

	std::ofstream out(out_path);
	out << kHeader << "\n";
	int runs = 0, failures = 0;
	for (const auto &[ds, plan] : cfg.plans) {
		for (double frac : plan.fractions) {
			for (bool shifted : {false, true}) {
				const std::string regime = shifted ? "shifted" : "random";
				for (int rep = cfg.first_rep; rep <= cfg.reps; rep++) {
					db.Must("SELECT pap.drop_release(name) FROM pap.releases");
					db.Must("SELECT pap_eval.split(" + db.Quote(ds) + ", " + Num(frac) + ", " +
					        (shifted ? "true" : "false") + ", " + std::to_string(rep) + ")");
					const std::string priv = ds + "_priv", pub = ds + "_pub";
					const std::string n = db.Must("SELECT count(*) FROM " + priv);
					const std::string m = db.Must("SELECT count(*) FROM " + pub);
					for (const Workload &w : cfg.workloads) {
						if (w.ds != ds)
							continue;
						const int wid = wid_of.at(w.name);
						const std::string nq =
						    db.Must("SELECT count(*) FROM pap_eval.truth WHERE wid = " + std::to_string(wid));
						for (double eps : plan.epsilons) {
							// One seed per cell and repetition, shared by the methods: auto and the
							// mechanism it picks draw the same noise.
							const std::string cell =
							    w.name + "|" + Num(frac) + "|" + regime + "|" + Num(eps) + "|" + std::to_string(rep);
							const int seed = SeedOf(cell);
							for (const Method &meth : kMethods) {
								const std::string mname = meth.name, table = meth.table;
								if (!cfg.methods.empty() && !cfg.methods.count(mname))
									continue;
								const std::string key = cell + "|" + mname;
								Row row;
								auto start = std::chrono::steady_clock::now();
								if (mname == "public" || mname == "margtables") {
									const std::string sql =
									    mname == "public"
									        ? "SELECT * FROM pap_eval.errors(" + std::to_string(wid) + ", NULL)"
									        : "SELECT * FROM pap_eval.margtables(" + std::to_string(wid) + ", " +
									              Num(eps) + ", " + Num(seed / 2147483647.0) + ")";
									if (mname == "margtables" && w.kind != "marginals")
										row.status = "n/a";
									else {
										Result r = db.Try(sql);
										if (!r.ok) {
											row.status = "error";
											std::cerr << "pap_eval: " << key << ": " << r.message << "\n";
										} else {
											row.max_e = PQgetvalue(r.res, 0, 0);
											row.mean_e = PQgetvalue(r.res, 0, 1);
										}
										PQclear(r.res);
									}
								} else {
									db.Must("SELECT pap.drop_release(name) FROM pap.releases WHERE name = 'r'");
									if (table == "support")
										db.Must("SET pap_release.max_cells = " +
										        std::to_string(std::atoi(m.c_str()) + 1));
									else
										db.Must("RESET pap_release.max_cells");
									// Granularity on the public sample: the default alpha, raised along a
									// fixed ladder until the cover fits the limit (public information only);
									// categorical and predicate classes have no cut points (ours take the
									// default, auto, which may plan predicates unmerged). PMW^Pub on
									// thresholds keeps every distinct public value, as its support is the
									// public rows.
									std::vector<std::string> tries;
									if (w.kind == "marginals" || w.kind == "predicates" ||
									    (table == "support" && w.kind == "thresholds"))
										tries.push_back(table == "public" ? "granularity => 'auto'"
										                                  : "granularity => 'finest'");
									// The baselines keep alpha's cuts; ours (the public table) take the
									// default, granularity auto, planned at the cell's epsilon.
									const std::string granularity =
									    table == "public" ? std::string() : std::string(", granularity => 'alpha'");
									for (const char *a : {"0.05", "0.1", "0.2", "0.3", "0.4", "0.5", "0.7", "0.9"})
										tries.push_back(std::string("alpha => ") + a + granularity);
									db.Must("SET pap_release.layout_epsilon = " + Num(eps));
									// PMW and MWEM run over a listed cover: their granularity (grid) is
									// the finest whose cover is listed.
									const bool listed =
									    std::string(meth.mechanism) == "pmw" || std::string(meth.mechanism) == "mwem";
									bool defined;
									if (table == "grid")
										defined = runner.DefineOnGrid(w, wid, eps, n, priv, row, key, listed);
									else
										defined = runner.Define(priv, pub, w, tries, row, key, listed);
									// PMW^Pub runs on the public support: when the full grid fits under
									// m + 1 cells, lower max_cells below it (the support is never larger
									// than the grid, so a refusal means they coincide: keep the grid).
									if (defined && table == "support" &&
									    db.Must("SELECT domain FROM pap.releases WHERE name = 'r'") == "full grid") {
										const long cells = std::atol(
										    db.Must("SELECT cell_count FROM pap.releases WHERE name = 'r'").c_str());
										db.Must("SELECT pap.drop_release('r')");
										db.Must("SET pap_release.max_cells = " + std::to_string(cells - 1));
										if (!(defined = runner.Define(priv, pub, w, tries, row, key, listed))) {
											db.Must("RESET pap_release.max_cells");
											row.status = "ok";
											defined = runner.Define(priv, pub, w, tries, row, key, listed);
										}
									}
									if (defined) {
										// A mechanism without a prior (identity, hierarchical) gets the default.
										const std::string prior_arg =
										    *meth.prior ? ", " + db.Quote(meth.prior) : std::string();
										const std::string named_prior =
										    *meth.prior ? ", prior => " + db.Quote(meth.prior) : std::string();
										Result p = db.Try(
										    "SELECT predicted_error, chosen_mechanism, concat(projection_error, ',', "
										    "outside_mass_error, ',', noise_error, ',', prior_error, ',', "
										    "answer_mode) "
										    "FROM pap.plan('r', " +
										    Num(eps) + ", 0, " + db.Quote(meth.mechanism) + prior_arg + ")");
										if (p.ok && PQntuples(p.res) == 1) {
											if (!PQgetisnull(p.res, 0, 0))
												row.pred = PQgetvalue(p.res, 0, 0);
											row.chosen = PQgetvalue(p.res, 0, 1);
											row.parts = PQgetvalue(p.res, 0, 2);
										}
										PQclear(p.res);
										db.Must("SET pap_release.test_seed = " + std::to_string(seed));
										Result r =
										    db.Try("CALL pap.run_release('r', " + Num(eps) + ", 0, mechanism => " +
										           db.Quote(meth.mechanism) + named_prior + ")");
										db.Must("RESET pap_release.test_seed");
										if (!r.ok) {
											row.status = r.sqlstate == "22023" ? "n/a" : "error";
											if (row.status == "error")
												std::cerr << "pap_eval: " << key << ": run: " << r.sqlstate << " "
												          << r.message << "\n";
										}
										PQclear(r.res);
										Result d =
										    db.Try("SELECT cover_size, cell_count, domain, alpha FROM pap.releases "
										           "WHERE name = 'r'");
										if (d.ok && PQntuples(d.res) == 1) {
											row.csize = PQgetvalue(d.res, 0, 0);
											row.cells = PQgetvalue(d.res, 0, 1);
											row.domain = PQgetvalue(d.res, 0, 2);
											row.alpha = PQgetvalue(d.res, 0, 3);
										}
										PQclear(d.res);
										if (row.status == "ok") {
											// A release on the public sample (ours, and PMW^Pub on its
											// support) answers in its own answer mode (NULL: projection or
											// refinement, whichever its plan predicts better), as a user of
											// pap_release would; the grid baselines interpolate within their
											// cells (the grid holds evenly spaced points in each), as a
											// practitioner would, or answer plainly.
											const bool own_mode = table != "grid";
											Result e = db.Try("SELECT * FROM pap_eval.errors(" + std::to_string(wid) +
											                  ", 'r', " +
											                  (own_mode     ? "NULL"
											                   : row.refine ? "true"
											                                : "false") +
											                  ")");
											if (!e.ok) {
												row.status = "error";
												std::cerr << "pap_eval: " << key << ": errors: " << e.message << "\n";
											} else {
												row.max_e = PQgetvalue(e.res, 0, 0);
												row.mean_e = PQgetvalue(e.res, 0, 1);
											}
											PQclear(e.res);
										}
									}
								}
								double secs =
								    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
								if (row.domain == "public support")
									row.domain = "support";
								else if (row.domain == "full grid")
									row.domain = "grid";
								out << ds << "," << w.name << "," << w.kind << "," << Num(frac) << "," << regime << ","
								    << Num(eps) << "," << rep << "," << mname << "," << meth.mechanism << ","
								    << meth.prior << "," << row.status << "," << row.max_e << "," << row.mean_e << ","
								    << row.pred << "," << row.chosen << "," << nq << "," << row.csize << ","
								    << row.cells << "," << row.domain << "," << row.alpha << "," << n << "," << m << ","
								    << row.grid_m << "," << seed << "," << Num(secs) << "," << row.parts << "\n";
								out.flush();
								runs++;
								if (row.status == "error")
									failures++;
								std::cerr << key << " " << row.status << " max " << row.max_e << " (" << Num(secs)
								          << " s)\n";
							}
						}
					}
				}
			}
		}
	}
	std::cerr << "pap_eval: " << runs << " runs, " << failures << " failed, "
	          << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s\n";
	return failures == 0 ? 0 : 1;
}

std::vector<std::string>
SplitCsv(const std::string &line)
{
	std::vector<std::string> f;
	std::string cur;
	for (char c : line) {
		if (c == ',') {
			f.push_back(cur);
			cur.clear();
		} else
			cur += c;
	}
	f.push_back(cur);
	return f;
}

bool
IsFraction(const std::string &s)
{
	char *end = nullptr;
	double x = std::strtod(s.c_str(), &end);
	return !s.empty() && *end == '\0' && std::isfinite(x) && x >= 0 && x <= 1;
}

std::string
Fmt(double x, int sig = 3)
{
	if (std::isnan(x))
		return "n/a";
	char b[64];
	std::snprintf(b, sizeof b, "%.*g", sig, x);
	return b;
}

double
Mean(const std::vector<double> &v)
{
	if (v.empty())
		return std::nan("");
	double s = 0;
	for (double x : v)
		s += x;
	return s / v.size();
}

double
Median(std::vector<double> v)
{
	if (v.empty())
		return std::nan("");
	std::sort(v.begin(), v.end());
	return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

const char *
MetOrMissed(bool met)
{
	return met ? "met" : "missed";
}

int
Report(const std::string &in_path, const std::string &doc_path, const std::string &dir, const std::string &images)
{
	std::ifstream in(in_path);
	std::string line;
	if (!std::getline(in, line) || line != kHeader) {
		std::cerr << "pap_eval report: " << in_path << ": missing or wrong header\n";
		return 1;
	}
	const size_t nf = SplitCsv(kHeader).size();
	struct Acc {
		std::vector<double> max_e, mean_e;
		std::map<int, double> max_by_rep;  // the same max errors by repetition: the methods share each one's split
		int na = 0, refused = 0;
	};
	struct Coverage {
		int runs = 0, covered = 0;
		std::vector<double> ratio;
	};
	// cell = workload|frac|regime -> eps -> method
	std::map<std::string, std::map<double, std::map<std::string, Acc>>> cells;
	std::map<std::string, std::string> ds_of, class_of, n_of, queries_of;
	std::map<std::string, Coverage> auto_cov;                  // data set -> auto's runs
	std::map<std::string, Coverage> method_cov;                // method -> its runs
	std::map<std::string, std::map<std::string, int>> chosen;  // data set -> auto's choice -> runs
	// Workload -> auto's runs and each part of its prediction over the measured error (which part makes the ratio).
	struct Parts {
		Coverage coverage;
		std::vector<double> projection, outside, noise;
	};
	std::map<std::string, Parts> auto_parts;
	int bad = 0, rows = 0, reps = 0;
	double seconds = 0;
	while (std::getline(in, line)) {
		rows++;
		std::vector<std::string> f = SplitCsv(line);
		if (f.size() != nf) {
			std::cerr << "pap_eval report: row " << rows << ": " << f.size() << " fields, expected " << nf << "\n";
			bad++;
			continue;
		}
		const std::string &status = f[10], &method = f[7];
		const bool ok = status == "ok" && IsFraction(f[11]) && IsFraction(f[12]);
		if (!(ok || status == "n/a" || status == "refused")) {
			std::cerr << "pap_eval report: row " << rows << ": status " << status << " or malformed errors\n";
			bad++;
			continue;
		}
		const std::string cell = f[1] + "|" + f[3] + "|" + f[4];
		Acc &a = cells[cell][std::atof(f[5].c_str())][method];
		ds_of[cell] = f[0];
		class_of[cell] = f[2];
		n_of[cell] = f[20];
		queries_of[cell] = f[15];
		seconds += std::atof(f[24].c_str());
		reps = std::max(reps, std::atoi(f[6].c_str()));
		if (status != "ok") {
			(status == "n/a" ? a.na : a.refused)++;
			continue;
		}
		const double meas = std::atof(f[11].c_str());
		a.max_e.push_back(meas);
		a.max_by_rep[std::atoi(f[6].c_str())] = meas;
		a.mean_e.push_back(std::atof(f[12].c_str()));
		if (!f[13].empty()) {
			const double pred = std::atof(f[13].c_str());
			for (Coverage *c : {&method_cov[method], method == "auto" ? &auto_cov[f[0]] : nullptr}) {
				if (!c)
					continue;
				c->runs++;
				c->covered += pred >= meas;
				if (meas > 0)
					c->ratio.push_back(pred / meas);
			}
		}
		if (method == "auto" && !f[13].empty() && meas > 0) {
			Parts &w = auto_parts[f[1]];
			w.coverage.runs++;
			w.coverage.covered += std::atof(f[13].c_str()) >= meas;
			w.coverage.ratio.push_back(std::atof(f[13].c_str()) / meas);
			w.projection.push_back(std::atof(f[25].c_str()) / meas);
			w.outside.push_back(std::atof(f[26].c_str()) / meas);
			w.noise.push_back(std::atof(f[27].c_str()) / meas);
		}
		if (method == "auto")
			chosen[f[0]][f[14].empty() ? "?" : f[14]]++;
	}
	if (rows == 0) {
		std::cerr << "pap_eval report: no rows\n";
		return 1;
	}
	std::ostringstream md;
	int total_cells = 0, met_best = 0, pub_cells = 0, met_pub = 0;
	// Per repetition (each one's split and seeds are shared by the methods): the cells where auto is above 1.1x the
	// best baseline (by mean) in every repetition, and in none.
	int missed_every_rep = 0, met_every_rep = 0;
	// Not targets, reported beside them: auto against the best baseline by the mean error over the queries (the
	// baseline of the lowest mean of its runs' mean errors), and the cells where auto's max error equals the best
	// baseline's (auto ran that baseline's own release: the same mechanism, layout and seed).
	int met_by_mean = 0, same_as_best = 0;
	std::map<std::string, std::pair<int, int>> best_by_ds;  // data set -> (cells, met)
	for (const auto &[cell, by_eps] : cells) {
		std::vector<std::string> parts;
		std::stringstream ss(cell);
		std::string p;
		while (std::getline(ss, p, '|'))
			parts.push_back(p);
		const std::string wl = parts[0], regime = parts[2], ds = ds_of[cell];
		const bool adult_marginals = ds == "adult" && class_of[cell] == "marginals";
		char title[300];
		std::snprintf(title, sizeof title, "%s, %g%% public, %s public sample (n = %s, %s random queries)", wl.c_str(),
		              std::atof(parts[1].c_str()) * 100, regime.c_str(), n_of[cell].c_str(), queries_of[cell].c_str());
		md << "\n#### " << title << "\n\nMean over repetitions of the maximum error over the random queries "
		   << "(fraction of n); in parentheses the mean error.\n\n| epsilon |";
		for (const std::string &mth : kOrder)
			md << " " << mth << " |";
		md << " best baseline | auto / best | per repetition | auto / pmwpub | targets |\n|---|";
		for (size_t i = 0; i < kOrder.size() + 5; i++)
			md << "---|";
		md << "\n";
		std::ofstream dat(dir + "/" + wl + "-" + parts[1] + "-" + regime + ".dat");
		dat << "epsilon";
		for (const std::string &mth : kOrder)
			dat << " " << mth;
		dat << "\n";
		for (const auto &[eps, by_m] : by_eps) {
			total_cells++;
			md << "| " << Fmt(eps) << " |";
			dat << eps;
			std::string best;
			double best_v = INFINITY, best_mean_v = INFINITY;
			for (const std::string &mth : kOrder) {
				auto it = by_m.find(mth);
				if (it == by_m.end()) {
					std::cerr << "pap_eval report: " << cell << " eps " << eps << ": no " << mth << " row\n";
					bad++;
					md << " missing |";
					dat << " NaN";
					continue;
				}
				const Acc &a = it->second;
				const double v = Mean(a.max_e), mv = Mean(a.mean_e);
				std::string shown = std::isnan(v) ? (a.refused ? "refused" : "n/a") : Fmt(v) + " (" + Fmt(mv, 2) + ")";
				if (!std::isnan(v) && a.refused)
					shown += " [" + std::to_string(a.refused) + " refused]";
				md << " " << shown << " |";
				dat << " " << (std::isnan(v) ? std::string("NaN") : Fmt(v, 6));
				if (kBaselines.count(mth) && !std::isnan(v) && v < best_v) {
					best_v = v;
					best = mth;
				}
				if (kBaselines.count(mth) && !std::isnan(mv))
					best_mean_v = std::min(best_mean_v, mv);
			}
			dat << "\n";
			// auto counts only where it released in every repetition
			const Acc *au = by_m.count("auto") ? &by_m.at("auto") : nullptr;
			const double a = au && au->refused == 0 && au->na == 0 ? Mean(au->max_e) : std::nan("");
			const double ratio = a / best_v;
			const double pmwpub = by_m.count("pmwpub") ? Mean(by_m.at("pmwpub").max_e) : std::nan("");
			const double ratio_pub = a / pmwpub;
			const bool ok_best = ratio <= 1.1;
			const double a_mean = au && au->refused == 0 && au->na == 0 ? Mean(au->mean_e) : std::nan("");
			met_by_mean += a_mean / best_mean_v <= 1.1;
			same_as_best += !std::isnan(a) && a == best_v;
			// auto / best in each repetition both ran in (the best chosen by mean, as above; only where auto released
			// in every repetition, as for the mean). Where the best measured 0, auto's 0 is a ratio of 1 and any other
			// error an infinite one: above 1.1x in that repetition, not left out.
			double low = INFINITY, high = -INFINITY;
			if (!std::isnan(a) && !best.empty())
				for (const auto &[rep, value] : au->max_by_rep) {
					const auto other = by_m.at(best).max_by_rep.find(rep);
					if (other == by_m.at(best).max_by_rep.end())
						continue;
					const double rep_ratio = other->second > 0 ? value / other->second : value > 0 ? INFINITY : 1.0;
					low = std::min(low, rep_ratio);
					high = std::max(high, rep_ratio);
				}
			std::string per_rep = "n/a";
			if (low <= high) {
				per_rep = Fmt(low) + " - " + Fmt(high);
				missed_every_rep += low > 1.1;
				met_every_rep += high <= 1.1;
			}
			std::string targets = std::string("<= 1.1x best: ") + MetOrMissed(ok_best);
			met_best += ok_best;
			best_by_ds[ds].first++;
			best_by_ds[ds].second += ok_best;
			if (adult_marginals) {
				pub_cells++;
				met_pub += ratio_pub <= 0.8;
				targets += std::string("; <= 0.8x pmwpub: ") + MetOrMissed(ratio_pub <= 0.8);
			}
			md << " " << (best.empty() ? "n/a" : best) << " | " << Fmt(ratio) << " | " << per_rep << " | "
			   << Fmt(ratio_pub) << " | " << targets << " |\n";
		}
		md << "\n![" << title << "](" << images << wl << "-" << parts[1] << "-" << regime << ".png)\n";
	}
	std::ostringstream head;
	head << "Runs: " << rows << " (" << Fmt(seconds / 60, 3) << " minutes of run time), " << reps
	     << " repetition(s) per cell. Cells (workload x public fraction x regime x epsilon): " << total_cells << ".\n\n"
	     << "| target | cells | met | result |\n|---|---|---|---|\n"
	     << "| auto <= 1.1x the best baseline, every cell | " << total_cells << " | " << met_best << " | "
	     << MetOrMissed(met_best == total_cells) << " |\n";
	for (const auto &[ds, c] : best_by_ds)
		head << "| ... of which " << ds << " | " << c.first << " | " << c.second << " | "
		     << MetOrMissed(c.first == c.second) << " |\n";
	head << "| auto <= 0.8x PMW^Pub, ADULT marginals | " << pub_cells << " | " << met_pub << " | "
	     << MetOrMissed(met_pub == pub_cells) << " |\n"
	     << "\nPer repetition (every method of a cell runs on the same split and seeds in each repetition; the best "
	        "baseline is the one of the lowest mean): auto is within 1.1x of it in every repetition in "
	     << met_every_rep << " cells, and above 1.1x of it in every repetition in " << missed_every_rep
	     << " cells; in the others it is within in some repetitions and above in others (the column \"per "
	        "repetition\" gives the range of auto / best).\n"
	     << "\nNot targets: by the mean error over the random queries instead of the maximum (the best baseline then "
	        "being the one of the lowest mean of its mean errors), auto is within 1.1x of the best baseline in "
	     << met_by_mean << " of the " << total_cells << " cells. In " << same_as_best
	     << " cells auto's maximum error equals the best baseline's exactly: auto ran that baseline's own release "
	        "(the same mechanism, layout and seed), so the ratio is 1 by construction.\n"
	     << "\nPlanner coverage: `pap.plan`'s predicted_error of `auto` (the plan of the mechanism it chose) against "
	     << "the measured maximum error over the random queries, per data set (targets: predicted >= measured in "
	     << ">= 90% of runs; median predicted / measured <= 3).\n\n"
	     << "| data set | auto runs | predicted >= measured | median predicted / measured | coverage target | "
	     << "ratio target | auto's choices |\n|---|---|---|---|---|---|---|\n";
	for (const auto &[ds, c] : auto_cov) {
		const double share = 100.0 * c.covered / std::max(1, c.runs), med = Median(c.ratio);
		std::string choices;
		for (const auto &[mech, k] : chosen[ds])
			choices += (choices.empty() ? "" : ", ") + mech + " " + std::to_string(k);
		head << "| " << ds << " | " << c.runs << " | " << c.covered << " (" << Fmt(share) << "%) | " << Fmt(med)
		     << " | " << MetOrMissed(share >= 90) << " | " << MetOrMissed(med <= 3) << " | " << choices << " |\n";
	}
	head << "\nPer workload: auto's median predicted / measured, and the median of each part of the prediction over "
	        "the measured error (projection: part (a), in the answer mode auto's release uses; outside: part (b); "
	        "noise: the mechanism's part, which holds its prior's error for PMW, MWEM and marginal_tables). The "
	        "parts are summed per run, so their medians need not add up to the total's.\n\n"
	     << "| workload | auto runs | predicted >= measured | median predicted / measured | projection | outside | "
	        "noise |\n|---|---|---|---|---|---|---|\n";
	for (const auto &[wl, w] : auto_parts)
		head << "| " << wl << " | " << w.coverage.runs << " | " << w.coverage.covered << " | "
		     << Fmt(Median(w.coverage.ratio)) << " | " << Fmt(Median(w.projection)) << " | " << Fmt(Median(w.outside))
		     << " | " << Fmt(Median(w.noise)) << " |\n";
	head << "\nEvery method's prediction (all data sets). The grid baselines (identity, hierarchical, mwem) are "
	        "planned against their data-independent grid as the \"public\" table: their projection and prior "
	        "parts read a uniform table, not the data, so their predictions are not what a release over the "
	        "public sample predicts (they are shown, not targets).\n\n"
	     << "| method | mechanism | release over | runs | predicted >= measured | median predicted / measured "
	        "|\n|---|---|---|---|---|---|\n";
	for (const Method &m : kMethods) {
		const auto it = method_cov.find(m.name);
		if (it == method_cov.end())
			continue;
		const Coverage &c = it->second;
		head << "| " << m.name << " | " << m.mechanism << " | " << m.table << " | " << c.runs << " | " << c.covered
		     << " (" << Fmt(100.0 * c.covered / std::max(1, c.runs)) << "%) | " << Fmt(Median(c.ratio)) << " |\n";
	}
	// The document: the template with its @RESULTS@ line replaced.
	std::ifstream tpl("eval/eval-doc.md");
	std::ofstream doc(doc_path);
	std::string tl;
	bool replaced = false;
	while (std::getline(tpl, tl)) {
		if (tl == "@RESULTS@") {
			doc << head.str() << md.str();
			replaced = true;
		} else
			doc << tl << "\n";
	}
	if (!replaced) {
		std::cerr << "pap_eval report: eval/eval-doc.md has no @RESULTS@ line\n";
		bad++;
	}
	std::cerr << "pap_eval report: " << rows << " rows, " << bad << " problems\n";
	return bad == 0 ? 0 : 1;
}

// The workloads of the evaluation. queries: the size of each random query set (marginals: every cell up to
// that many); predicates: how many predicates the class lists.
std::vector<Workload>
Workloads(bool ci, const std::vector<std::string> &adult_columns)
{
	const int q = ci ? 100 : 1000, cells = ci ? 300 : 5000, preds = ci ? 6 : 16;
	std::vector<Workload> w{
	    {"diamonds", "diamonds-thresholds", "thresholds", {"price"}, {}, 0, ci ? 200 : 1000},
	    {"diamonds", "diamonds-boxes", "boxes", {"carat", "price"}, {}, 0, ci ? 200 : 1000},
	    {"adult", "adult-marginals3", "marginals", {}, adult_columns, 3, cells},
	    {"cps", "cps-thresholds", "thresholds", {"wage"}, {}, 0, q},
	    {"cps", "cps-ranges", "ranges", {"experience"}, {}, 0, q},
	    {"cps", "cps-boxes", "boxes", {"wage", "experience"}, {}, 0, q},
	    {"cps", "cps-orthants", "orthants", {"wage", "education", "experience"}, {}, 0, q},
	    {"cps", "cps-marginals2", "marginals", {}, {"ethnicity", "smsa", "region", "parttime"}, 2, cells},
	    {"cps", "cps-marginals3", "marginals", {}, {"ethnicity", "smsa", "region", "parttime"}, 3, cells},
	    {"cps",
	     "cps-predicates",
	     "predicates",
	     {"wage", "education", "experience"},
	     {"ethnicity", "smsa", "region", "parttime"},
	     0,
	     preds},
	    {"movielens", "movielens-thresholds", "thresholds", {"rated_at"}, {}, 0, q},
	    {"movielens", "movielens-ranges", "ranges", {"year"}, {}, 0, q},
	    {"movielens", "movielens-boxes", "boxes", {"year", "rated_at"}, {}, 0, q},
	    {"movielens", "movielens-orthants", "orthants", {"year", "rated_at", "rating"}, {}, 0, q},
	    {"movielens", "movielens-marginals2", "marginals", {}, {"rating", "decade", "genre"}, 2, cells},
	    {"movielens", "movielens-marginals3", "marginals", {}, {"rating", "decade", "genre"}, 3, cells},
	    {"movielens",
	     "movielens-predicates",
	     "predicates",
	     {"year", "rated_at", "rating"},
	     {"genre", "decade"},
	     0,
	     preds},
	};
	return w;
}

// pap_eval bounds: the measured coverage of pap.answer_bounded (docs/mechanisms.md §18). For every workload,
// public fraction, regime, repetition and epsilon, a release on the public table (defined as run defines
// "auto"'s) run with auto and with every mechanism that applies, and, refined and not, how many of the
// workload's queries have their exact private answer in [lower, upper]. One CSV row per release and refine; the
// totals per regime and mechanism on stderr.
const char *kBoundsHeader =
    "dataset,workload,class,public_frac,regime,epsilon,rep,mechanism,refine,beta,chosen,queries,covered";

int
Bounds(const Config &cfg, const std::string &out_path)
{
	Db db;
	db.Must("SET client_min_messages = error");
	Runner runner(db, cfg);
	const std::map<std::string, int> wid_of = LoadWorkloads(db, cfg, runner);
	db.Must("SET pap_release.max_cover_queries = " + std::to_string(cfg.max_cover_queries));
	std::ofstream out(out_path);
	out << kBoundsHeader << "\n";
	// answers and covered answers, releases and releases with every answer covered, per regime
	std::map<std::string, std::array<long, 4>> totals;
	int failures = 0;
	for (const auto &[ds, plan] : cfg.plans) {
		for (double frac : plan.fractions) {
			for (bool shifted : {false, true}) {
				const std::string regime = shifted ? "shifted" : "random";
				for (int rep = cfg.first_rep; rep <= cfg.reps; rep++) {
					db.Must("SELECT pap.drop_release(name) FROM pap.releases");
					db.Must("SELECT pap_eval.split(" + db.Quote(ds) + ", " + Num(frac) + ", " +
					        (shifted ? "true" : "false") + ", " + std::to_string(rep) + ")");
					const std::string priv = ds + "_priv", pub = ds + "_pub";
					for (const Workload &w : cfg.workloads) {
						if (w.ds != ds)
							continue;
						const int wid = wid_of.at(w.name);
						for (double eps : plan.epsilons) {
							const std::string cell =
							    w.name + "|" + Num(frac) + "|" + regime + "|" + Num(eps) + "|" + std::to_string(rep);
							std::vector<std::string> tries;
							if (w.kind == "marginals" || w.kind == "predicates")
								tries.push_back("granularity => 'auto'");
							for (const char *a : {"0.05", "0.1", "0.2", "0.3", "0.4", "0.5", "0.7", "0.9"})
								tries.push_back(std::string("alpha => ") + a);
							db.Must("SET pap_release.layout_epsilon = " + Num(eps));  // granularity auto's
							for (const char *mechanism : {"auto", "pmw", "mwem", "identity", "hierarchical"}) {
								// A defined release runs once: defined again (the same way) for every mechanism.
								db.Must("SELECT pap.drop_release(name) FROM pap.releases WHERE name = 'r'");
								Row row;
								if (!runner.Define(priv, pub, w, tries, row, cell)) {
									failures += row.status == "error";
									break;
								}
								db.Must("SET pap_release.test_seed = " + std::to_string(SeedOf(cell)));
								Result r = db.Try("CALL pap.run_release('r', " + Num(eps) + ", mechanism => " +
								                  db.Quote(mechanism) + ")");
								db.Must("RESET pap_release.test_seed");
								PQclear(r.res);
								if (!r.ok) {
									if (r.sqlstate != "22023") {  // 22023: the mechanism does not apply to the release
										std::cerr << "pap_eval: " << cell << ": run " << mechanism << ": " << r.sqlstate
										          << " " << r.message << "\n";
										failures++;
									}
									continue;
								}
								const std::string beta = db.Must("SELECT beta FROM pap.releases WHERE name = 'r'");
								const std::string chosen =
								    db.Must("SELECT mechanism FROM pap.releases WHERE name = 'r'");
								for (bool refine : {false, true}) {
									Result c = db.Try("SELECT * FROM pap_eval.coverage(" + std::to_string(wid) +
									                  ", 'r', " + (refine ? "true" : "false") + ")");
									if (!c.ok) {
										std::cerr << "pap_eval: " << cell << ": coverage: " << c.message << "\n";
										PQclear(c.res);
										failures++;
										continue;
									}
									const long queries = std::atol(PQgetvalue(c.res, 0, 0));
									const long covered = std::atol(PQgetvalue(c.res, 0, 1));
									PQclear(c.res);
									out << ds << "," << w.name << "," << w.kind << "," << Num(frac) << "," << regime
									    << "," << Num(eps) << "," << rep << "," << mechanism << ","
									    << (refine ? "true" : "false") << "," << beta << "," << chosen << "," << queries
									    << "," << covered << "\n";
									out.flush();
									std::array<long, 4> &t = totals[regime + " " + chosen + (refine ? " refined" : "")];
									t[0] += queries;
									t[1] += covered;
									t[2] += 1;
									t[3] += covered == queries;
									std::cerr << cell << " " << chosen << (refine ? " refined" : "") << " covered "
									          << covered << "/" << queries << "\n";
								}
							}
						}
					}
				}
			}
		}
	}
	for (const auto &[regime, t] : totals)
		std::cerr << "pap_eval bounds: " << regime << ": " << t[1] << " of " << t[0] << " answers within their bound ("
		          << Num(100.0 * double(t[1]) / double(std::max(1L, t[0]))) << "%); " << t[3] << " of " << t[2]
		          << " releases with every answer within\n";
	return failures == 0 ? 0 : 1;
}

}  // namespace

int
main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	if (args.size() >= 2 && (args[0] == "run" || args[0] == "bounds")) {
		Config cfg;
		std::string out;
		for (size_t i = 1; i < args.size(); i++) {
			if (args[i] == "--ci")
				cfg.ci = true;
			else
				out = args[i];
		}
		if (cfg.ci) {
			// CI checks completion and well-formed output: one repetition; diamonds and ADULT at two
			// epsilons, the data sets added later at one public fraction and epsilon.
			cfg.reps = 1;
			cfg.max_cover_queries = 200000;
			cfg.adult_columns = {"workclass", "race", "sex", "income"};
			cfg.plans["diamonds"] = {{0.01, 0.10}, {0.1, 1}};
			cfg.plans["adult"] = {{0.01, 0.10}, {0.1, 1}};
			cfg.plans["cps"] = {{0.10}, {1}};
			cfg.plans["movielens"] = {{0.10}, {1}};
		} else {
			cfg.adult_columns = {"workclass", "education", "marital", "race", "sex", "income"};
			for (const char *ds : {"diamonds", "adult", "cps", "movielens"})
				cfg.plans[ds] = {{0.01, 0.10}, {0.1, 0.5, 1, 2}};
		}
		cfg.workloads = Workloads(cfg.ci, cfg.adult_columns);
		// PAP_EVAL_ONLY=name,name,...: only these workloads (and their data sets' cells).
		if (const char *only = std::getenv("PAP_EVAL_ONLY")) {
			const std::string list = std::string(",") + only + ",";
			std::vector<Workload> kept;
			std::set<std::string> datasets;
			for (const Workload &w : cfg.workloads)
				if (list.find("," + w.name + ",") != std::string::npos) {
					kept.push_back(w);
					datasets.insert(w.ds);
				}
			cfg.workloads = kept;
			for (auto it = cfg.plans.begin(); it != cfg.plans.end();)
				it = datasets.count(it->first) ? std::next(it) : cfg.plans.erase(it);
		}
		// PAP_EVAL_METHODS=name,name,...: only these methods (a quick look at auto's plans; the report then
		// compares with the methods that ran).
		if (const char *only = std::getenv("PAP_EVAL_METHODS")) {
			std::stringstream ss(only);
			std::string name;
			while (std::getline(ss, name, ','))
				cfg.methods.insert(name);
		}
		// PAP_EVAL_EPSILONS=e,e,...: only these of each data set's epsilons (a run's seed is a function of its
		// coordinates, so the runs kept are those of a whole run).
		if (const char *only = std::getenv("PAP_EVAL_EPSILONS")) {
			std::set<double> kept;
			std::stringstream ss(only);
			std::string e;
			while (std::getline(ss, e, ',')) {
				char *end = nullptr;
				const double eps = std::strtod(e.c_str(), &end);
				if (e.empty() || *end != '\0') {
					std::cerr << "pap_eval: PAP_EVAL_EPSILONS must list numbers separated by commas\n";
					return 2;
				}
				kept.insert(eps);
			}
			bool any = false;
			for (auto &[ds, plan] : cfg.plans) {
				plan.epsilons.erase(std::remove_if(plan.epsilons.begin(), plan.epsilons.end(),
				                                   [&](double eps) { return !kept.count(eps); }),
				                    plan.epsilons.end());
				any = any || !plan.epsilons.empty();
			}
			if (!any) {
				std::cerr << "pap_eval: PAP_EVAL_EPSILONS names none of the run's epsilons\n";
				return 2;
			}
		}
		if (const char *r = std::getenv("PAP_EVAL_REPS"))
			cfg.reps = std::atoi(r);
		// PAP_EVAL_FIRST_REP=k: start at repetition k (its split and seeds are those of repetition k of a whole
		// run), so that the rows of repetitions k..reps can be appended to a CSV that holds 1..k-1.
		if (const char *r = std::getenv("PAP_EVAL_FIRST_REP"))
			cfg.first_rep = std::atoi(r);
		if (cfg.first_rep < 1 || cfg.first_rep > cfg.reps) {
			std::cerr << "pap_eval: PAP_EVAL_FIRST_REP must be between 1 and the number of repetitions\n";
			return 2;
		}
		if (args[0] == "bounds" && cfg.first_rep != 1) {
			std::cerr << "pap_eval: PAP_EVAL_FIRST_REP applies to run only (eval/bounds.sh merges nothing)\n";
			return 2;
		}
		return args[0] == "bounds" ? Bounds(cfg, out) : Run(cfg, out);
	}
	if ((args.size() == 4 || args.size() == 5) && args[0] == "report")
		return Report(args[1], args[2], args[3], args.size() == 5 ? args[4] : "");
	std::cerr
	    << "usage: pap_eval run [--ci] OUT.csv | pap_eval bounds [--ci] OUT.csv | pap_eval report IN.csv DOC.md DIR "
	       "[IMG]\n";
	return 2;
}
