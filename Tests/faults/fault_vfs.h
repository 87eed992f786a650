/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fault_vfs.h - a test-only SQLite VFS that injects I/O faults and power loss
 * (never linked into libtender.so). Installed as the default VFS of the test
 * process, it wraps "unix" and so sits under every connection libtender opens.
 *
 * Armed with a kind, N and a mode, the Nth call of that kind fails once:
 * open (EIO, ENOSPC), read (EIO), write (EIO, ENOSPC, a short write that puts
 * half the bytes on disk), sync (EIO, or power loss), lock (EIO, busy). Power
 * loss at the Nth sync puts back every byte written since each file's last
 * sync, as a machine losing power would, and fails every later call until
 * fault_vfs_disarm(); the test then frees the engine and reopens the home.
 * Thread-safe (one mutex).
 */
#ifndef TENDER_FAULT_VFS_H
#define TENDER_FAULT_VFS_H

typedef enum { FAULT_OPEN, FAULT_READ, FAULT_WRITE, FAULT_SYNC, FAULT_LOCK, FAULT_KINDS } fault_kind;
typedef enum { FAULT_EIO, FAULT_ENOSPC, FAULT_SHORT_WRITE, FAULT_POWER_LOSS, FAULT_BUSY, FAULT_DISK_FULL } fault_mode;

/* Registers the shim as the default VFS. Returns 0 on success. */
int fault_vfs_install(void);
/* Counts calls from now on; with nth > 0 the nth call of `kind` fails with `mode`. */
void fault_vfs_arm(fault_kind kind, unsigned long nth, fault_mode mode);
/* Stops failing, forgets a power loss and the unsynced writes, keeps the counts. */
void fault_vfs_disarm(void);
/* Calls of `kind` seen since the last arm. */
unsigned long fault_vfs_count(fault_kind kind);
/* Whether the armed fault happened since the last arm. */
int fault_vfs_fired(void);

/* From now on every write and sync of a main database file (never its -wal or -shm) fails, with mode FAULT_EIO
   (SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC) or FAULT_ENOSPC (SQLITE_FULL for writes); -1 stops. In WAL mode a commit
   writes the log only, so this fails the checkpoints (a worker's, a committer's, the close's) and nothing else. */
void fault_vfs_fail_database(int mode);
/* Calls failed by fault_vfs_fail_database() so far. */
unsigned long fault_vfs_database_faults(void);

const char *fault_kind_name(fault_kind kind);
const char *fault_mode_name(fault_mode mode);

#endif
