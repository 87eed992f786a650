/* SPDX-License-Identifier: Apache-2.0 */
/* fault_vfs.c - see fault_vfs.h. Test-only. */
#define _GNU_SOURCE
#include "fault_vfs.h"
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* One write made since the file's last sync: where, and the bytes it covered before. */
typedef struct undo {
    struct undo *next;
    sqlite3_int64 offset;
    int length; /* bytes of `before` that existed before the write */
    unsigned char before[];
} undo;

typedef struct fault_file {
    sqlite3_file base;
    struct fault_file *next_open;
    undo *undo_log;
    sqlite3_int64 synced_size; /* -1: no unsynced write */
    int main_db;               /* opened as a main database file (SQLITE_OPEN_MAIN_DB) */
    sqlite3_file *real;        /* the unix file, allocated right after this struct */
} fault_file;

static sqlite3_vfs *real_vfs;
static sqlite3_vfs shim;
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static unsigned long counts[FAULT_KINDS];
static fault_kind armed_kind;
static unsigned long armed_nth;
static fault_mode armed_mode;
static int fired, crashed, disk_full;
static int database_fault = -1; /* fault_vfs_fail_database(): every write and sync of a main database file fails */
static unsigned long database_faults;

/* The mode every write and sync of `f` fails with (fault_vfs_fail_database()), or -1. */
static int database_fails(fault_file *f) {
    pthread_mutex_lock(&lock);
    int mode = f->main_db ? database_fault : -1;
    if (mode >= 0) database_faults++;
    pthread_mutex_unlock(&lock);
    return mode;
}
static fault_file *open_files;

const char *fault_kind_name(fault_kind kind) {
    static const char *names[] = {"open", "read", "write", "sync", "lock"};
    return kind < FAULT_KINDS ? names[kind] : "?";
}

const char *fault_mode_name(fault_mode mode) {
    static const char *names[] = {"EIO", "ENOSPC", "short write", "power loss", "busy", "disk full"};
    return names[mode];
}

/* Counts a call of `kind`; returns the mode to fail with, or -1 to go ahead. */
static int should_fail(fault_kind kind) {
    pthread_mutex_lock(&lock);
    int result = -1;
    if (crashed) {
        result = FAULT_EIO;
    } else if (disk_full && kind == FAULT_WRITE) {
        counts[kind]++;
        result = FAULT_ENOSPC;
    } else {
        counts[kind]++;
        if (armed_nth && kind == armed_kind && counts[kind] == armed_nth) {
            fired = 1;
            result = armed_mode == FAULT_DISK_FULL ? FAULT_ENOSPC : (int)armed_mode;
            disk_full = armed_mode == FAULT_DISK_FULL;
        }
    }
    pthread_mutex_unlock(&lock);
    return result;
}

static void forget_undo(fault_file *f) {
    for (undo *u = f->undo_log, *next; u; u = next) {
        next = u->next;
        free(u);
    }
    f->undo_log = NULL;
    f->synced_size = -1;
}

/* Power loss: every file gets back the bytes it had at its last sync. Called with the lock held. */
static void lose_power(void) {
    for (fault_file *f = open_files; f; f = f->next_open) {
        for (undo *u = f->undo_log; u; u = u->next) /* newest first */
            if (u->length > 0) f->real->pMethods->xWrite(f->real, u->before, u->length, u->offset);
        if (f->synced_size >= 0) f->real->pMethods->xTruncate(f->real, f->synced_size);
        forget_undo(f);
    }
    crashed = 1;
}

/* Remembers what a write or truncate is about to cover. */
static void remember(fault_file *f, sqlite3_int64 offset, sqlite3_int64 amount) {
    sqlite3_int64 size = 0;
    if (f->real->pMethods->xFileSize(f->real, &size) != SQLITE_OK) return;
    pthread_mutex_lock(&lock);
    if (f->synced_size < 0) f->synced_size = size;
    int existing = offset >= size ? 0 : (int)(size - offset < amount ? size - offset : amount);
    undo *u = malloc(sizeof *u + (size_t)(existing > 0 ? existing : 0));
    if (u) {
        u->offset = offset;
        u->length = existing;
        if (existing > 0 && f->real->pMethods->xRead(f->real, u->before, existing, offset) != SQLITE_OK) u->length = 0;
        u->next = f->undo_log;
        f->undo_log = u;
    }
    pthread_mutex_unlock(&lock);
}

static int shim_close(sqlite3_file *file) {
    fault_file *f = (fault_file *)file;
    pthread_mutex_lock(&lock);
    for (fault_file **p = &open_files; *p; p = &(*p)->next_open)
        if (*p == f) { *p = f->next_open; break; }
    forget_undo(f);
    pthread_mutex_unlock(&lock);
    return f->real->pMethods->xClose(f->real);
}

static int shim_read(sqlite3_file *file, void *buf, int amount, sqlite3_int64 offset) {
    fault_file *f = (fault_file *)file;
    if (should_fail(FAULT_READ) >= 0) return SQLITE_IOERR_READ;
    return f->real->pMethods->xRead(f->real, buf, amount, offset);
}

static int shim_write(sqlite3_file *file, const void *buf, int amount, sqlite3_int64 offset) {
    fault_file *f = (fault_file *)file;
    int database = database_fails(f);
    if (database == FAULT_ENOSPC) return SQLITE_FULL;
    if (database >= 0) return SQLITE_IOERR_WRITE;
    int mode = should_fail(FAULT_WRITE);
    if (mode == FAULT_ENOSPC) return SQLITE_FULL;
    if (mode >= 0 && mode != FAULT_SHORT_WRITE) return SQLITE_IOERR_WRITE;
    remember(f, offset, amount);
    if (mode == FAULT_SHORT_WRITE) {
        f->real->pMethods->xWrite(f->real, buf, amount / 2, offset);
        return SQLITE_IOERR_WRITE;
    }
    return f->real->pMethods->xWrite(f->real, buf, amount, offset);
}

static int shim_truncate(sqlite3_file *file, sqlite3_int64 size) {
    fault_file *f = (fault_file *)file;
    int mode = should_fail(FAULT_WRITE);
    if (mode >= 0 && mode != FAULT_ENOSPC) return SQLITE_IOERR_TRUNCATE; /* freeing space works on a full disk */
    sqlite3_int64 current = 0;
    if (f->real->pMethods->xFileSize(f->real, &current) == SQLITE_OK && current > size) remember(f, size, current - size);
    return f->real->pMethods->xTruncate(f->real, size);
}

static int shim_sync(sqlite3_file *file, int flags) {
    fault_file *f = (fault_file *)file;
    if (database_fails(f) >= 0) return SQLITE_IOERR_FSYNC;
    int mode = should_fail(FAULT_SYNC);
    if (mode == FAULT_POWER_LOSS) {
        pthread_mutex_lock(&lock);
        lose_power();
        pthread_mutex_unlock(&lock);
    }
    if (mode >= 0) return SQLITE_IOERR_FSYNC;
    int rc = f->real->pMethods->xSync(f->real, flags);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&lock);
        forget_undo(f);
        pthread_mutex_unlock(&lock);
    }
    return rc;
}

static int shim_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xFileSize(f->real, size);
}

static int shim_lock(sqlite3_file *file, int level) {
    fault_file *f = (fault_file *)file;
    int mode = should_fail(FAULT_LOCK);
    if (mode == FAULT_BUSY) return SQLITE_BUSY;
    if (mode >= 0) return SQLITE_IOERR_LOCK;
    return f->real->pMethods->xLock(f->real, level);
}

static int shim_unlock(sqlite3_file *file, int level) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int shim_check_reserved(sqlite3_file *file, int *out) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int shim_file_control(sqlite3_file *file, int op, void *arg) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int shim_sector_size(sqlite3_file *file) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int shim_device_characteristics(sqlite3_file *file) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

static int shim_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xShmMap(f->real, page, size, extend, out);
}

static int shim_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    fault_file *f = (fault_file *)file;
    if ((flags & SQLITE_SHM_LOCK) && should_fail(FAULT_LOCK) >= 0) return SQLITE_BUSY;
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void shim_shm_barrier(sqlite3_file *file) {
    fault_file *f = (fault_file *)file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int shim_shm_unmap(sqlite3_file *file, int delete_flag) {
    fault_file *f = (fault_file *)file;
    return f->real->pMethods->xShmUnmap(f->real, delete_flag);
}

/* No memory-mapped reads: every page goes through shim_read. */
static int shim_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    (void)file; (void)offset; (void)amount;
    *out = NULL;
    return SQLITE_OK;
}

static int shim_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    (void)file; (void)offset; (void)page;
    return SQLITE_OK;
}

static const sqlite3_io_methods methods = {
    3, shim_close, shim_read, shim_write, shim_truncate, shim_sync, shim_file_size, shim_lock, shim_unlock,
    shim_check_reserved, shim_file_control, shim_sector_size, shim_device_characteristics, shim_shm_map,
    shim_shm_lock, shim_shm_barrier, shim_shm_unmap, shim_fetch, shim_unfetch,
};

static int shim_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    fault_file *f = (fault_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->synced_size = -1;
    int mode = should_fail(FAULT_OPEN);
    if (mode == FAULT_ENOSPC) return SQLITE_FULL;
    if (mode >= 0) return SQLITE_IOERR;
    int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out_flags);
    if (rc != SQLITE_OK) return rc;
    f->base.pMethods = &methods;
    f->main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    pthread_mutex_lock(&lock);
    f->next_open = open_files;
    open_files = f;
    pthread_mutex_unlock(&lock);
    return SQLITE_OK;
}

static int shim_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    int mode = should_fail(FAULT_WRITE);
    if (mode >= 0 && mode != FAULT_ENOSPC) return SQLITE_IOERR_DELETE;
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}

static int shim_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int shim_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static void *shim_dl_open(sqlite3_vfs *vfs, const char *name) { (void)vfs; return real_vfs->xDlOpen(real_vfs, name); }
static void shim_dl_error(sqlite3_vfs *vfs, int n, char *out) { (void)vfs; real_vfs->xDlError(real_vfs, n, out); }
static void (*shim_dl_sym(sqlite3_vfs *vfs, void *h, const char *s))(void) { (void)vfs; return real_vfs->xDlSym(real_vfs, h, s); }
static void shim_dl_close(sqlite3_vfs *vfs, void *h) { (void)vfs; real_vfs->xDlClose(real_vfs, h); }
static int shim_randomness(sqlite3_vfs *vfs, int n, char *out) { (void)vfs; return real_vfs->xRandomness(real_vfs, n, out); }
static int shim_sleep(sqlite3_vfs *vfs, int us) { (void)vfs; return real_vfs->xSleep(real_vfs, us); }
static int shim_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; return real_vfs->xCurrentTime(real_vfs, out); }
static int shim_last_error(sqlite3_vfs *vfs, int n, char *out) { (void)vfs; return real_vfs->xGetLastError(real_vfs, n, out); }
static int shim_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *out) { (void)vfs; return real_vfs->xCurrentTimeInt64(real_vfs, out); }

int fault_vfs_install(void) {
    real_vfs = sqlite3_vfs_find("unix");
    if (!real_vfs) return -1;
    shim = (sqlite3_vfs){
        .iVersion = 2, .szOsFile = (int)sizeof(fault_file) + real_vfs->szOsFile, .mxPathname = real_vfs->mxPathname,
        .zName = "tender-fault", .xOpen = shim_open, .xDelete = shim_delete, .xAccess = shim_access,
        .xFullPathname = shim_full_pathname, .xDlOpen = shim_dl_open, .xDlError = shim_dl_error,
        .xDlSym = shim_dl_sym, .xDlClose = shim_dl_close, .xRandomness = shim_randomness, .xSleep = shim_sleep,
        .xCurrentTime = shim_current_time, .xGetLastError = shim_last_error, .xCurrentTimeInt64 = shim_current_time64,
    };
    return sqlite3_vfs_register(&shim, 1) == SQLITE_OK ? 0 : -1;
}

void fault_vfs_arm(fault_kind kind, unsigned long nth, fault_mode mode) {
    pthread_mutex_lock(&lock);
    memset(counts, 0, sizeof counts);
    armed_kind = kind;
    armed_nth = nth;
    armed_mode = mode;
    fired = crashed = disk_full = 0;
    pthread_mutex_unlock(&lock);
}

void fault_vfs_disarm(void) {
    pthread_mutex_lock(&lock);
    armed_nth = 0;
    crashed = disk_full = 0;
    for (fault_file *f = open_files; f; f = f->next_open) forget_undo(f);
    pthread_mutex_unlock(&lock);
}

unsigned long fault_vfs_count(fault_kind kind) {
    pthread_mutex_lock(&lock);
    unsigned long n = counts[kind];
    pthread_mutex_unlock(&lock);
    return n;
}

int fault_vfs_fired(void) {
    pthread_mutex_lock(&lock);
    int f = fired;
    pthread_mutex_unlock(&lock);
    return f;
}

void fault_vfs_fail_database(int mode) {
    pthread_mutex_lock(&lock);
    database_fault = mode;
    pthread_mutex_unlock(&lock);
}

unsigned long fault_vfs_database_faults(void) {
    pthread_mutex_lock(&lock);
    unsigned long n = database_faults;
    pthread_mutex_unlock(&lock);
    return n;
}
