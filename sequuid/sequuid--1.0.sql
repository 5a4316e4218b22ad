/* sequuid/sequuid--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sequuid" to load this file. \quit
