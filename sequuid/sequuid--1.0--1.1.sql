/* sequuid/sequuid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.1'" to load this file. \quit

-- A fresh CREATE EXTENSION sequuid runs sequuid--1.0.sql and then this script (there is no sequuid--1.1.sql), so
-- every object 1.1 adds is defined here once; test/sql/upgrade.sql checks that 1.0 + UPDATE equals a fresh install.
