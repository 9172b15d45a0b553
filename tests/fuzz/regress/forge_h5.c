/*
 * forge_h5.c -- writes one value into a dataset of an HDF5 file through
 * libhdf5, so that the file's checksums stay right: the forged files of
 * tests/fuzz/regress/ (a value no nickar writes, in a file whose checksums
 * all hold).  Not built by CMake; compile it by hand:
 *
 *   cc -o forge_h5 forge_h5.c $(pkg-config --cflags --libs hdf5)
 *   forge_h5 FILE DATASET MEMBER INDEX VALUE
 *
 * sets element INDEX (of the dataset seen as one flat list) of DATASET --
 * or of its compound MEMBER, "-" for a plain dataset -- to the integer
 * VALUE.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: forge_h5 FILE DATASET MEMBER INDEX VALUE\n");
        return 2;
    }
    long long value = atoll(argv[5]);
    hsize_t index = (hsize_t)atoll(argv[4]);
    hid_t f = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t ds = f < 0 ? -1 : H5Dopen2(f, argv[2], H5P_DEFAULT);
    if (ds < 0)
        return 1;
    hid_t mt = H5Tcopy(H5T_NATIVE_LLONG);
    if (argv[3][0] != '-') {
        hid_t c = H5Tcreate(H5T_COMPOUND, sizeof value);
        H5Tinsert(c, argv[3], 0, H5T_NATIVE_LLONG);
        H5Tclose(mt);
        mt = c;
    }
    hid_t fs = H5Dget_space(ds);
    hsize_t dims[8], coord[8];
    int rank = H5Sget_simple_extent_dims(fs, dims, NULL);
    for (int d = rank - 1; d >= 0; d--) {
        coord[d] = index % dims[d];
        index /= dims[d];
    }
    hsize_t one = 1;
    hid_t ms = H5Screate_simple(1, &one, NULL);
    int rc = H5Sselect_elements(fs, H5S_SELECT_SET, 1, coord) < 0 ||
             H5Dwrite(ds, mt, ms, fs, H5P_DEFAULT, &value) < 0;
    H5Sclose(ms);
    H5Sclose(fs);
    H5Tclose(mt);
    H5Dclose(ds);
    return H5Fclose(f) < 0 || rc;
}
