/*
 * test_search_nnet.c -- the network family (src/search/nnet.c,
 * src/search/eval.c): specs parsed and refused, a value computed by hand
 * (the arithmetic in the comments), the default weights (deterministic,
 * the material value), antisymmetry to the bit on random positions of
 * every variant and activation, the activations against libm, the
 * gradient against finite differences, and weights files written, read
 * back through the io layer and refused when their length does not fit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "family_testlib.h"
#include "search/nnet.h"

static const char *const acts[] = {"tanh", "relu", "hardtanh", "sigmoid"};
enum { NACTS = sizeof acts / sizeof acts[0] };

/* A number uniform in [-scale, scale). */
static double uniform(nk_rng *rng, double scale)
{
    return ((double)nk_rng_below(rng, 1u << 20) / (1 << 19) - 1.0) * scale;
}

/* Sets e up for v as a network of hidden units with activation acts[act]
 * (its text into text[64]), every weight uniform in [-scale, scale). */
static void random_net(nk_eval *e, const nk_variant *v, size_t hidden, size_t act, nk_rng *rng,
                       double scale, char *text)
{
    char err[256];
    snprintf(text, 64, "nnet:hidden=%zu:act=%s", hidden, acts[act]);
    assert_int_equal(nk_eval_setup(e, v, text, NULL, 0, err, sizeof err), NK_OK);
    for (size_t i = 0; i < e->nn->count; i++)
        e->tw[i] = uniform(rng, scale);
}

/* ===== specs ===== */

static void test_parse_good(void **state)
{
    (void)state;
    nk_nnet nn;
    char err[256];
    /* The default: 16 tanh units; 14 inputs in the Warri family (1 + 16 *
     * 16 weights), 26 in Adji Kui II (1 + 16 * 28). */
    assert_int_equal(nk_nnet_parse(&nn, "nnet", nk_variant_find("abapa"), err, sizeof err), NK_OK);
    assert_int_equal(nn.hidden, 16);
    assert_int_equal(nn.act, NK_NNET_TANH);
    assert_int_equal(nn.inputs, 14);
    assert_int_equal(nn.count, 257);
    assert_string_equal(nn.text, "nnet:hidden=16:act=tanh");
    assert_int_equal(nk_nnet_parse(&nn, "nnet", nk_variant_find("adjikui"), err, sizeof err),
                     NK_OK);
    assert_int_equal(nn.inputs, 26);
    assert_int_equal(nn.count, 1 + 16 * 28);
    /* Keys in any order; the cap itself. */
    assert_int_equal(nk_nnet_parse(&nn, "nnet:act=relu:hidden=256", NULL, err, sizeof err), NK_OK);
    assert_int_equal(nn.count, 1 + 256 * 16);
    assert_string_equal(nn.text, "nnet:hidden=256:act=relu");
    for (size_t i = 0; i < NACTS; i++) {
        char text[64];
        snprintf(text, sizeof text, "nnet:hidden=1:act=%s", acts[i]);
        assert_int_equal(nk_nnet_parse(&nn, text, NULL, err, sizeof err), NK_OK);
        assert_int_equal(nn.act, (int)i);
        assert_string_equal(nn.text, text);
    }
    assert_true(nk_nnet_is("nnet") && nk_nnet_is("nnet:hidden=2"));
    assert_false(nk_nnet_is("nnets") || nk_nnet_is("ntuple") || nk_nnet_is("positional"));
    /* The family table knows it. */
    assert_string_equal(nk_eval_family_of("nnet:hidden=4")->name, "nnet");
    size_t rows;
    assert_non_null(nk_eval_family_of("nnet")->params(&rows));
    assert_int_equal(rows, 2);
    size_t n;
    char name[64];
    assert_int_equal(nk_eval_features_count("nnet:hidden=3", nk_variant_find("antigua"), &n, name,
                                            sizeof name, err, sizeof err),
                     NK_OK);
    assert_int_equal(n, 1 + 3 * 16);
    assert_string_equal(name, "family 'nnet:hidden=3:act=tanh'");
}

static void test_parse_bad(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
        nk_status st;
    } bad[] = {
        {"nnet:hidden=0", "nnet.hidden '0' is not a whole number of units in 1..256", NK_ERANGE},
        {"nnet:hidden=257", "nnet.hidden '257' is not a whole number of units in 1..256",
         NK_ERANGE},
        {"nnet:hidden=-3", "nnet.hidden '-3' is not", NK_ERANGE},
        {"nnet:hidden=x", "nnet.hidden 'x' is not", NK_ERANGE},
        {"nnet:act=softmax", "nnet.act 'softmax' is not an activation (tanh, relu", NK_EINVAL},
        {"nnet:act=", "nnet.act '' is not an activation", NK_EINVAL},
        {"nnet:width=3", "nnet: unknown key 'width'; valid keys: hidden, act", NK_EINVAL},
        {"nnet:hidden=2:hidden=3", "nnet.hidden given twice", NK_EINVAL},
        {"nnet:relu", "nnet: 'relu' is not KEY=VALUE", NK_EINVAL},
        {"nnet:", "nnet: '' is not KEY=VALUE", NK_EINVAL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nk_nnet nn;
        char err[256] = "";
        assert_int_equal(nk_nnet_parse(&nn, bad[i].text, NULL, err, sizeof err), bad[i].st);
        if (strstr(err, bad[i].says) == NULL)
            fail_msg("'%s' says '%s', not '%s'", bad[i].text, err, bad[i].says);
        assert_null(strchr(err, '\n'));
        /* nk_eval_features_check and nk_eval_setup say the same. */
        char err2[256] = "";
        assert_int_not_equal(nk_eval_features_check(bad[i].text, err2, sizeof err2), NK_OK);
        assert_string_equal(err2, err);
        nk_eval e;
        assert_int_not_equal(
            nk_eval_setup(&e, nk_variant_find("abapa"), bad[i].text, NULL, 0, err2, sizeof err2),
            NK_OK);
        assert_string_equal(err2, err);
    }
    /* The spec parser refuses the same, naming the spec. */
    nk_spec spec;
    char err[512];
    assert_int_equal(nk_spec_parse(&spec, "ab:depth=2,features=nnet:hidden=0", err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "player spec 'ab:depth=2,features=nnet:hidden=0'"));
    assert_non_null(strstr(err, "nnet.hidden '0'"));
    assert_int_equal(nk_spec_parse(&spec, "mcts:cutoff=4,features=nnet:act=elu", err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "nnet.act 'elu'"));
    /* Good specs of both players. */
    assert_int_equal(
        nk_spec_parse(&spec, "ab:depth=2,features=nnet:hidden=8:act=relu", err, sizeof err), NK_OK);
    assert_string_equal(spec.features, "nnet:hidden=8:act=relu");
    assert_int_equal(nk_spec_parse(&spec, "mcts:cutoff=4,features=nnet", err, sizeof err), NK_OK);
}

/* ===== the value ===== */

/* Two units, relu, 14 inputs: 1 + 2 * 16 = 33 weights.  w_s = 0.5;
 * unit 0 reads pit 0 of the view (W_0,0 = 1) with bias -2 and output
 * weight 3; unit 1 reads the view's own store (W_12,1 = 0.25) with bias 1
 * and output weight -1; every other weight 0.
 * Board: South 3,1,0,0,0,0, North 0,2,0,0,0,5, stores 10-7.
 * South to move: its view's pit 0 is board pit 0 (3 seeds), its store 10;
 *   the opponent's view's pit 0 is board pit 6 (0 seeds), its store 7.
 *   f(A) = 3 * relu(3 - 2) - relu(1 + 2.5) = 3 - 3.5 = -0.5;
 *   f(B) = 3 * relu(0 - 2) - relu(1 + 1.75) = 0 - 2.75 = -2.75;
 *   value = 0.5 * (10 - 7) + (-0.5 + 2.75) = 3.75.
 * North to move: the views swap: value = 0.5 * (7 - 10) + (-2.75 + 0.5)
 *   = -3.75. */
static void test_value_by_hand(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    double w[33] = {0};
    const size_t H = 2, I = 14;
    w[0] = 0.5;
    w[1 + 0 * H + 0] = 1.0;        /* W_0,0 */
    w[1 + 12 * H + 1] = 0.25;      /* W_12,1 */
    w[1 + I * H + 0] = -2.0;       /* b_0 */
    w[1 + I * H + 1] = 1.0;        /* b_1 */
    w[1 + (I + 1) * H + 0] = 3.0;  /* u_0 */
    w[1 + (I + 1) * H + 1] = -1.0; /* u_1 */
    nk_eval e;
    char err[256];
    assert_int_equal(nk_eval_setup(&e, v, "nnet:hidden=2:act=relu", w, 33, err, sizeof err), NK_OK);
    nk_pos p = pos_of("3,1,0,0,0,0/0,2,0,0,0,5 10-7 S");
    assert_true(nk_eval_score(&e, &p) == 3.75);
    p.side = NK_NORTH;
    assert_true(nk_eval_score(&e, &p) == -3.75);
    const double *got;
    assert_int_equal(nk_eval_weights(&e, &got), 33);
    assert_true(got[32] == -1.0);
    assert_string_equal(e.set->name, "nnet");
    /* The gradient by hand at North to move (A: North's view, pit 6 with
     * 0 seeds and store 7; B: South's): unit 0 is off in A (h = -2) and on
     * in B (h = 1); unit 1 is on in both (h = 2.75, 3.5).
     *   d/dw_s = 7 - 10 = -3;  d/du_0 = relu(-2) - relu(1) = -1;
     *   d/du_1 = 2.75 - 3.5 = -0.75;  d/db_0 = 3 * (0 - 1) = -3;
     *   d/db_1 = -1 * (1 - 1) = 0;  d/dW_0,0 = 3 * (0 * 0 - 1 * 3) = -9;
     *   d/dW_12,1 = -1 * (7 - 10) = 3 (own store in each view). */
    double g[33];
    nk_eval_gradient(&e, &p, g);
    assert_true(g[0] == -3.0);
    assert_true(g[1 + (I + 1) * H + 0] == -1.0);
    assert_true(g[1 + (I + 1) * H + 1] == -0.75);
    assert_true(g[1 + I * H + 0] == -3.0);
    assert_true(g[1 + I * H + 1] == 0.0);
    assert_true(g[1 + 0 * H + 0] == -9.0);
    assert_true(g[1 + 12 * H + 1] == 3.0);
    /* A wrong count and a weight that is not finite are refused. */
    nk_eval bad;
    assert_int_equal(nk_eval_setup(&bad, v, "nnet:hidden=2:act=relu", w, 32, err, sizeof err),
                     NK_EINVAL);
    assert_non_null(strstr(err, "family 'nnet:hidden=2:act=relu' needs 33 weights, got 32"));
    w[7] = INFINITY;
    assert_int_equal(nk_eval_setup(&bad, v, "nnet:hidden=2:act=relu", w, 33, err, sizeof err),
                     NK_ERANGE);
    assert_non_null(strstr(err, "weight 8 is not a finite number"));
    nk_eval_free(&e);
}

/* The default weights: w_s = 1, the first layer drawn as the header says,
 * biases and output weights 0; the value is the material value on every
 * position, in every variant. */
static void test_defaults(void **state)
{
    (void)state;
    for (size_t k = 0; k < nk_variant_count(); k++) {
        const nk_variant *v = nk_variant_at(k);
        nk_eval e, mat;
        char err[256];
        assert_int_equal(nk_eval_setup(&e, v, "nnet:hidden=5", NULL, 0, err, sizeof err), NK_OK);
        assert_int_equal(nk_eval_setup(&mat, v, "material", NULL, 0, err, sizeof err), NK_OK);
        const double *w;
        const size_t n = nk_eval_weights(&e, &w), I = e.nn->inputs, H = 5;
        nk_rng rng = {nk_seed_mix(NK_NNET_SEED, H, I)};
        const double r = 1.0 / (4.0 * sqrt((double)I));
        assert_true(w[0] == 1.0);
        for (size_t i = 1; i <= I * H; i++) {
            assert_true(w[i] == ((double)nk_rng_below(&rng, 1u << 20) / (1 << 19) - 1.0) * r);
            assert_true(fabs(w[i]) <= r && w[i] != w[i - 1]);
        }
        for (size_t i = 1 + I * H; i < n; i++)
            assert_true(w[i] == 0.0);
        nk_rng prng = {k + 1};
        for (int i = 0; i < 200; i++) {
            nk_pos p = random_pos(v, &prng);
            assert_true(nk_eval_score(&e, &p) == nk_eval_score(&mat, &p));
        }
        nk_eval_free(&e);
    }
}

/* The tanh and sigmoid units against libm's: one unit reading the own
 * store (W = c) with bias b and output weight 1, w_s = 0, at a board with
 * stores s-0: value = a(b + c s) - a(b). */
static void test_activations_match_libm(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    for (int sig = 0; sig < 2; sig++) {
        double w[17] = {0};
        nk_eval e;
        char err[256];
        assert_int_equal(nk_eval_setup(&e, v,
                                       sig ? "nnet:hidden=1:act=sigmoid" : "nnet:hidden=1:act=tanh",
                                       w, 17, err, sizeof err),
                         NK_OK);
        e.tw[1 + 15] = 1.0; /* u_0 */
        double worst = 0.0;
        for (int s = 1; s <= 48; s++) {
            for (int i = -4000; i <= 4000; i += 7) {
                const double b = i * 0.01, c = (s % 7 - 3) * 0.37 + 0.05;
                e.tw[1 + 12] = c; /* W_12,0 */
                e.tw[1 + 14] = b; /* b_0 */
                nk_pos p = pos_of("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
                p.store[0] = (uint8_t)s;
                const double h = b + c * s;
                const double want =
                    sig ? 1.0 / (1.0 + exp(-h)) - 1.0 / (1.0 + exp(-b)) : tanh(h) - tanh(b);
                const double d = fabs(nk_eval_score(&e, &p) - want);
                worst = d > worst ? d : worst;
            }
        }
        if (worst > 4e-15)
            fail_msg("%s differs from libm's by %g", sig ? "sigmoid" : "tanh", worst);
        nk_eval_free(&e);
    }
}

/* The mirror image of p: the rows, the stores and the pits' owners
 * swapped, the same side to move. */
static nk_pos mirror(const nk_pos *p)
{
    nk_pos m = *p;
    m.north = 0;
    for (int j = 0; j < NK_PITS; j++) {
        const int o = (j + NK_ROW) % NK_PITS;
        m.pit[j] = p->pit[o];
        if (!((p->north >> o) & 1u)) /* South's pit o is North's pit j there */
            m.north |= (uint16_t)(1u << j);
    }
    m.store[0] = p->store[1];
    m.store[1] = p->store[0];
    return m;
}

/* Antisymmetry by construction: handing the move to the other side, or
 * mirroring the position, negates the value exactly, for random weights
 * on random positions of every variant with every activation. */
static void test_antisymmetry(void **state)
{
    (void)state;
    for (size_t k = 0; k < nk_variant_count(); k++) {
        const nk_variant *v = nk_variant_at(k);
        for (size_t a = 0; a < NACTS; a++) {
            char text[64];
            nk_eval e;
            nk_rng rng = {k * 16 + a + 1};
            random_net(&e, v, 3 + 7 * a, a, &rng, 0.7, text);
            int nonzero = 0;
            for (int i = 0; i < 300; i++) {
                nk_pos p = random_pos(v, &rng);
                if (i % 5 == 0) /* boards far from a game's */
                    for (int j = 0; j < NK_PITS; j++)
                        p.pit[j] = (uint8_t)nk_rng_below(&rng, 30);
                nk_pos q = p, m = mirror(&p);
                q.side ^= 1u;
                double x = nk_eval_score(&e, &p), y = nk_eval_score(&e, &q),
                       z = nk_eval_score(&e, &m);
                nonzero += x != 0.0;
                if (y != -x || z != -x) {
                    char ptext[NK_POS_TEXT];
                    nk_pos_format(&p, ptext);
                    fail_msg("%s, %s, '%s': %.17g, %.17g with the other side to move, %.17g "
                             "mirrored",
                             v->name, text, ptext, x, y, z);
                }
            }
            assert_true(nonzero > 250); /* the check saw real values */
            nk_eval_free(&e);
        }
    }
}

/* In Adji Kui II the owners are inputs: the same seeds with other owners
 * give another value. */
static void test_owners_are_inputs(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("adjikui");
    nk_eval e;
    char err[256];
    assert_int_equal(nk_eval_setup(&e, v, "nnet:hidden=4", NULL, 0, err, sizeof err), NK_OK);
    nk_rng rng = {99};
    for (size_t i = 0; i < e.nn->count; i++)
        e.tw[i] = uniform(&rng, 0.5);
    nk_pos p = pos_of("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
    const double x = nk_eval_score(&e, &p);
    p.north ^= 1u; /* pit 0 now North's */
    assert_true(nk_eval_score(&e, &p) != x);
    nk_eval_free(&e);
}

/* ===== the gradient ===== */

/* Whether a pre-activation of p lies within eps of a kink of act (relu:
 * 0; hardtanh: -1, 1), where a finite difference sees another slope. */
static bool near_kink(const nk_eval *e, const nk_pos *p, double eps)
{
    if (e->nn->act != NK_NNET_RELU && e->nn->act != NK_NNET_HARDTANH)
        return false;
    const size_t H = e->nn->hidden, I = e->nn->inputs;
    for (unsigned s = 0; s < 2; s++) {
        double x[NK_NNET_INPUTS_MAX];
        nk_nnet_inputs(e->nn, p, s, x);
        for (size_t k = 0; k < H; k++) {
            double h = e->tw[1 + I * H + k];
            for (size_t i = 0; i < I; i++)
                h += x[i] * e->tw[1 + i * H + k];
            if (fabs(h) < eps || fabs(fabs(h) - 1.0) < eps)
                return true;
        }
    }
    return false;
}

/* Every entry of nk_eval_gradient against a central difference of the
 * unclamped value (nk_nnet_value), relative error below 1e-6. */
static void test_gradient_finite_differences(void **state)
{
    (void)state;
    static const char *variants[] = {"abapa", "adjikui", "antigua"};
    for (size_t k = 0; k < 3; k++) {
        const nk_variant *v = nk_variant_find(variants[k]);
        for (size_t a = 0; a < NACTS; a++) {
            char text[64];
            nk_eval e;
            nk_rng rng = {k * 8 + a + 5};
            random_net(&e, v, 2 + 2 * a, a, &rng, 0.3, text);
            const size_t n = e.nn->count;
            double *g = malloc(n * sizeof *g), *val = malloc(n * sizeof *val);
            uint32_t *idx = malloc(n * sizeof *idx);
            assert_true(g != NULL && val != NULL && idx != NULL);
            int checked = 0;
            for (int t = 0; t < 12; t++) {
                nk_pos p = random_pos(v, &rng);
                if (near_kink(&e, &p, 1e-3))
                    continue;
                nk_eval_gradient(&e, &p, g);
                /* As entries: every weight in order, the same numbers. */
                assert_int_equal(nk_eval_gradient_entries(&e, &p, idx, val), n);
                for (size_t i = 0; i < n; i++)
                    assert_true(idx[i] == i && val[i] == g[i]);
                for (size_t i = 0; i < n; i++) {
                    const double keep = e.tw[i], step = 1e-6 * fmax(1.0, fabs(keep));
                    e.tw[i] = keep + step;
                    const double up = nk_nnet_value(e.nn, e.tw, &p);
                    e.tw[i] = keep - step;
                    const double down = nk_nnet_value(e.nn, e.tw, &p);
                    e.tw[i] = keep;
                    const double fd = (up - down) / (2 * step);
                    if (fabs(fd - g[i]) > 1e-6 * fmax(1.0, fabs(g[i])))
                        fail_msg("%s %s: weight %zu: gradient %.12g, finite difference %.12g",
                                 v->name, text, i, g[i], fd);
                }
                checked++;
            }
            assert_true(checked >= 6);
            free(g);
            free(val);
            free(idx);
            nk_eval_free(&e);
        }
    }
}

/* ===== weights files ===== */

static void test_weights_file(void **state)
{
    (void)state;
    const nk_variant *v = nk_variant_find("abapa");
    char path[] = "/tmp/nk_test_nnet_XXXXXX";
    const char *features = "nnet:hidden=6:act=hardtanh"; /* 1 + 6 * 16 = 97 weights */
    double w[97];
    weights_file_write(path, features, w, 97, 3e8);
    weights_file_plays(features, path, v, w, 97);
    /* The same file for a network of another width or variant: refused,
     * naming the file and both lengths. */
    weights_file_refused("nnet:hidden=7", path, v,
                         "97 weights, but family 'nnet:hidden=7:act=tanh' needs 113");
    weights_file_refused("nnet:hidden=5", path, v, "more than 81 weights");
    weights_file_refused(features, path, nk_variant_find("adjikui"), "needs 169"); /* 1 + 6 * 28 */
    unlink(path);
    nk_eval_shared_free_all();
}

/* The parts inspect summarises cover each family's weights in order. */
static void test_parts(void **state)
{
    (void)state;
    static const struct {
        const char *features, *variant;
        size_t n, counts[NK_EVAL_PARTS_MAX];
    } cases[] = {
        {"nnet:hidden=5", "abapa", 4, {1, 70, 5, 5}},
        {"nnet:hidden=3", "adjikui", 4, {1, 78, 3, 3}},
        {"ntuple:layout=ring1:cap=2", "abapa", 2, {1, 36}},
        {"positional", "abapa", 1, {9}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        nk_eval e;
        char err[256];
        assert_int_equal(nk_eval_setup(&e, nk_variant_find(cases[c].variant), cases[c].features,
                                       NULL, 0, err, sizeof err),
                         NK_OK);
        nk_eval_part parts[NK_EVAL_PARTS_MAX];
        const double *w;
        const size_t total = nk_eval_weights(&e, &w), n = nk_eval_parts(&e, parts);
        assert_int_equal(n, cases[c].n);
        size_t next = 0;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(parts[i].offset, next);
            assert_int_equal(parts[i].count, cases[c].counts[i]);
            assert_non_null(parts[i].name);
            next += parts[i].count;
        }
        assert_int_equal(next, total);
        nk_eval_free(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),
        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_value_by_hand),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_activations_match_libm),
        cmocka_unit_test(test_antisymmetry),
        cmocka_unit_test(test_owners_are_inputs),
        cmocka_unit_test(test_gradient_finite_differences),
        cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
