-- The settings (src/pg/guc.cpp; docs/reference.md, "Settings"): defined when the library loads, under a reserved
-- prefix; the test and benchmark hooks are hidden from SHOW ALL and pg_settings but SHOW still reads them.
LOAD 'pap_release';
SELECT name, setting, unit, context, vartype, min_val, max_val, enumvals, short_desc
  FROM pg_settings WHERE name LIKE 'pap\_release.%' ORDER BY name;
SELECT count(*) AS hooks_listed FROM pg_settings
 WHERE name IN ('pap_release.test_seed', 'pap_release.reference_workload', 'pap_release.debug_inject_error',
                'pap_release.debug_fail_after_charge');
SHOW pap_release.test_seed;
SHOW pap_release.reference_workload;
SHOW pap_release.debug_inject_error;
SHOW pap_release.debug_fail_after_charge;
-- a name under the prefix that no setting has is an error, not a placeholder
SET pap_release.test_sed = 1;
-- The size limits bound memory allocated outside PostgreSQL's accounting: only superusers (and the roles they
-- grant SET on them to) set them; any role may set the others.
CREATE ROLE regress_settings_user;
SET ROLE regress_settings_user;
SET pap_release.max_cells = 2147483647;
SET pap_release.max_cover_queries = 2147483647;
SET pap_release.strict = on;
RESET ROLE;
DROP ROLE regress_settings_user;
