/*-------------------------------------------------------------------------
 *
 * public_id.h
 *	  The v7 <-> public id mapping's setting and its SipHash-2-4.
 *
 * sequuid/src/public_id.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_PUBLIC_ID_H
#define SEQUUID_PUBLIC_ID_H

extern void sequuid_public_id_define_gucs(void);
extern uint64 sequuid_siphash24(const uint8 *message, size_t length, uint64 k0, uint64 k1);

#endif							/* SEQUUID_PUBLIC_ID_H */
