/*
 * h5_leak.c -- does libhdf5 itself leak on a damaged file?  (issue 27,
 * finding 7; docs/testing.md, "Leaks inside libhdf5".)
 *
 * A minimal program against libhdf5 alone: it opens FILE, makes one call
 * -- H5Aexists(root, "kind") -- or with DATASET two, as nickar's reader
 * does (the walk over every object, then the open): H5Oget_info_by_name2
 * and H5Dopen2 of it; closes
 * every identifier it got (it prints how many stay open: the file, then
 * none) and the library.  Nothing of nickar runs, so what LeakSanitizer
 * reports is HDF5's own.  Not built by CMake:
 *
 *   cc -g -fsanitize=address -o h5_leak tests/fuzz/h5_leak.c \
 *      $(pkg-config --cflags --libs hdf5)
 *   ASAN_OPTIONS=fast_unwind_on_malloc=0 ./h5_leak DAMAGED.h5 [DATASET]
 *
 * With HDF5 1.10.8 (Debian 12), on a tournament file with one bit of an
 * object header flipped (so that the header fails its checksum as HDF5
 * loads it): 424 bytes (the object header, H5O_t) and, on some headers,
 * 56 more (its image) are lost under H5O_protect; and when H5Dopen2 then
 * fails after it read the dataset's layout message, 64 bytes under
 * H5D__layout_oh_read (tests/fuzz/regress/tourfile/hdf5-leak-*.h5:
 * "h5_leak hdf5-leak-object-header-checksum.h5",
 * "h5_leak hdf5-leak-dataset-layout.h5 /games").  tests/fuzz/lsan.supp suppresses those two
 * stacks and nothing else.
 */
#include <hdf5.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: h5_leak FILE [DATASET]\n");
        return 2;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(argv[1], H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        fprintf(stderr, "H5Fopen failed\n");
        return 1;
    }
    if (argc == 3) {
        H5O_info_t info;
        herr_t got = H5Oget_info_by_name2(f, argv[2], &info, H5O_INFO_BASIC, H5P_DEFAULT);
        fprintf(stderr, "H5Oget_info_by_name2(%s): %s\n", argv[2], got < 0 ? "failed" : "done");
        hid_t d = H5Dopen2(f, argv[2], H5P_DEFAULT);
        fprintf(stderr, "H5Dopen2(%s): %s\n", argv[2], d < 0 ? "failed" : "opened");
        if (d >= 0)
            H5Dclose(d);
    } else {
        fprintf(stderr, "H5Aexists(/, kind): %d\n", (int)H5Aexists(f, "kind"));
    }
    fprintf(stderr, "identifiers open: %zd\n", H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL));
    H5Fclose(f);
    fprintf(stderr, "after H5Fclose: %zd\n", H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL));
    H5close();
    return 0;
}
