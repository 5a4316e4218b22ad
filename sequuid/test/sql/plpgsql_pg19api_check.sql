-- plpgsql_pg19api_check: the port's sequuid_pg19api_upgrade_check(), after install_plpgsql_pg19api made the casts
-- as a superuser: both must go before an upgrade to 19 (plain casts: no extension to detach them from).
SELECT count(*) AS to_18 FROM sequuid_pg19api_upgrade_check(18);
SELECT object, fix FROM sequuid_pg19api_upgrade_check(19);
BEGIN;
SELECT fix FROM sequuid_pg19api_upgrade_check(19) \gexec
SELECT count(*) AS still_to_do FROM sequuid_pg19api_upgrade_check(19);
ROLLBACK;
