// A program written against CuTe's documented layout API, compiled against include/ as it is:
// it includes <cute/tensor.hpp>, says `using namespace cute;`, builds the worked examples of the
// CuTe documentation and compares what print() writes with the strings the documentation shows.
//
// Sources (NVIDIA/cutlass, media/docs/cpp/cute/):
//   01_layout.md         "Constructing a Layout", "Using a Layout", "Coordinate Mapping",
//                        "Index Mapping", "Sublayouts", "Concatenation", "Grouping and flattening"
//   02_layout_algebra.md "Coalesce", "By-mode Coalesce", "Composition" (Examples 1-3),
//                        "By-mode Composition", "Complement Examples", "Logical Divide 1-D/2-D
//                        Example", "Zipped, Tiled, Flat Divides", "Logical Product 1-D Example",
//                        "Blocked and Raked Products", "Zipped and Tiled Products"
// Where the documentation writes a layout in math notation (no `_` static markers), the printed
// string is compared with the markers removed; where it shows print() output, it is compared as is.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

#include <cute/tensor.hpp>

using namespace cute;

namespace {

std::string output_of(std::function<void()> const& f) {
  fflush(stdout);
  testing::internal::CaptureStdout();
  f();
  fflush(stdout);
  return testing::internal::GetCapturedStdout();
}
template <class T>
std::string printed(T const& x) {
  return output_of([&] { print(x); });
}
std::string math(std::string s) {  // the documentation's math notation: no static markers
  std::string r;
  for (char c : s) {
    if (c != '_') r += c;
  }
  return r;
}
std::string rstrip_lines(std::string const& s) {
  std::string r, line;
  for (char c : s) {
    if (c == '\n') {
      line.erase(line.find_last_not_of(' ') + 1);
      r += line + "\n";
      line.clear();
    } else {
      line += c;
    }
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return r + line;
}

template <class Shape, class Stride>
void print2D(Layout<Shape, Stride> const& layout) {
  for (int m = 0; m < size<0>(layout); ++m) {
    for (int n = 0; n < size<1>(layout); ++n) {
      printf("%3d  ", layout(m, n));
    }
    printf("\n");
  }
}

template <class Shape, class Stride>
void print1D(Layout<Shape, Stride> const& layout) {
  for (int i = 0; i < size(layout); ++i) {
    printf("%3d  ", layout(i));
  }
}

}  // namespace

// 01_layout.md, "Constructing a Layout": print of each layout.
TEST(CuteDocs, ConstructingALayout) {
  Layout s8 = make_layout(Int<8>{});
  Layout d8 = make_layout(8);
  Layout s2xs4 = make_layout(make_shape(Int<2>{}, Int<4>{}));
  Layout s2xd4 = make_layout(make_shape(Int<2>{}, 4));
  Layout s2xd4_a = make_layout(make_shape(Int<2>{}, 4), make_stride(Int<12>{}, Int<1>{}));
  Layout s2xd4_col = make_layout(make_shape(Int<2>{}, 4), LayoutLeft{});
  Layout s2xd4_row = make_layout(make_shape(Int<2>{}, 4), LayoutRight{});
  Layout s2xh4 = make_layout(make_shape(2, make_shape(2, 2)), make_stride(4, make_stride(2, 1)));
  Layout s2xh4_col = make_layout(shape(s2xh4), LayoutLeft{});

  EXPECT_EQ(printed(s8), "_8:_1");
  EXPECT_EQ(printed(d8), "8:_1");
  EXPECT_EQ(printed(s2xs4), "(_2,_4):(_1,_2)");
  EXPECT_EQ(printed(s2xd4), "(_2,4):(_1,_2)");
  EXPECT_EQ(printed(s2xd4_a), "(_2,4):(_12,_1)");
  EXPECT_EQ(printed(s2xd4_col), "(_2,4):(_1,_2)");
  EXPECT_EQ(printed(s2xd4_row), "(_2,4):(4,_1)");
  EXPECT_EQ(printed(s2xh4), "(2,(2,2)):(4,(2,1))");
  EXPECT_EQ(printed(s2xh4_col), "(2,(2,2)):(_1,(2,4))");

  // "Using a Layout": print2D and print1D.
  EXPECT_EQ(rstrip_lines(output_of([&] { print2D(s2xs4); })), "  0    2    4    6\n  1    3    5    7\n");
  EXPECT_EQ(rstrip_lines(output_of([&] { print2D(s2xd4_a); })), "  0    1    2    3\n 12   13   14   15\n");
  EXPECT_EQ(rstrip_lines(output_of([&] { print2D(s2xh4_col); })), "  0    2    4    6\n  1    3    5    7\n");
  EXPECT_EQ(rstrip_lines(output_of([&] { print2D(s2xh4); })), "  0    2    1    3\n  4    6    5    7\n");
  EXPECT_EQ(rstrip_lines(output_of([&] { print1D(s2xs4); })), "  0    1    2    3    4    5    6    7");
  EXPECT_EQ(rstrip_lines(output_of([&] { print1D(s2xd4_a); })), "  0   12    1   13    2   14    3   15");
  EXPECT_EQ(rstrip_lines(output_of([&] { print1D(s2xh4_col); })), "  0    1    2    3    4    5    6    7");
  EXPECT_EQ(rstrip_lines(output_of([&] { print1D(s2xh4); })), "  0    4    2    6    1    5    3    7");

  EXPECT_EQ(output_of([&] { print_layout(s2xh4); }),
            "(2,(2,2)):(4,(2,1))\n"
            "      0   1   2   3\n"
            "    +---+---+---+---+\n"
            " 0  | 0 | 2 | 1 | 3 |\n"
            "    +---+---+---+---+\n"
            " 1  | 4 | 6 | 5 | 7 |\n"
            "    +---+---+---+---+\n");
}

// 01_layout.md, "Coordinate Mapping" and "Index Mapping": the printed idx2crd / crd2idx examples.
TEST(CuteDocs, CoordinateAndIndexMapping) {
  auto shape = Shape<_3, Shape<_2, _3>>{};
  EXPECT_EQ(printed(idx2crd(16, shape)), "(1,(1,2))");
  EXPECT_EQ(printed(idx2crd(_16{}, shape)), "(_1,(_1,_2))");
  EXPECT_EQ(printed(idx2crd(make_coord(1, 5), shape)), "(1,(1,2))");
  EXPECT_EQ(printed(idx2crd(make_coord(_1{}, 5), shape)), "(_1,(1,2))");
  EXPECT_EQ(printed(idx2crd(make_coord(1, make_coord(1, 2)), shape)), "(1,(1,2))");
  EXPECT_EQ(printed(idx2crd(make_coord(_1{}, make_coord(1, _2{})), shape)), "(_1,(1,_2))");

  auto stride = Stride<_3, Stride<_12, _1>>{};
  EXPECT_EQ(printed(crd2idx(16, shape, stride)), "17");
  EXPECT_EQ(printed(crd2idx(_16{}, shape, stride)), "_17");
  EXPECT_EQ(printed(crd2idx(make_coord(1, 5), shape, stride)), "17");
  EXPECT_EQ(printed(crd2idx(make_coord(_1{}, 5), shape, stride)), "17");
  EXPECT_EQ(printed(crd2idx(make_coord(_1{}, _5{}), shape, stride)), "_17");
  EXPECT_EQ(printed(crd2idx(make_coord(1, make_coord(1, 2)), shape, stride)), "17");
  EXPECT_EQ(printed(crd2idx(make_coord(_1{}, make_coord(_1{}, _2{})), shape, stride)), "_17");
}

// 01_layout.md, "Sublayouts", "Concatenation", "Grouping and flattening".
TEST(CuteDocs, LayoutManipulation) {
  {
    Layout a = Layout<Shape<_4, Shape<_3, _6>>>{};
    EXPECT_EQ(math(printed(a)), "(4,(3,6)):(1,(4,12))");
    EXPECT_EQ(math(printed(layout<0>(a))), "4:1");
    EXPECT_EQ(math(printed(layout<1>(a))), "(3,6):(4,12)");
    EXPECT_EQ(math(printed(layout<1, 0>(a))), "3:4");
    EXPECT_EQ(math(printed(layout<1, 1>(a))), "6:12");
  }
  {
    Layout a = Layout<Shape<_2, _3, _5, _7>>{};
    EXPECT_EQ(math(printed(a)), "(2,3,5,7):(1,2,6,30)");
    EXPECT_EQ(math(printed(select<1, 3>(a))), "(3,7):(2,30)");
    EXPECT_EQ(math(printed(select<0, 1, 3>(a))), "(2,3,7):(1,2,30)");
    EXPECT_EQ(math(printed(select<2>(a))), "(5):(6)");
    EXPECT_EQ(math(printed(take<1, 3>(a))), "(3,5):(2,6)");
    EXPECT_EQ(math(printed(take<1, 4>(a))), "(3,5,7):(2,6,30)");
  }
  {
    Layout a = Layout<_3, _1>{};
    Layout b = Layout<_4, _3>{};
    Layout row = make_layout(a, b);
    Layout col = make_layout(b, a);
    EXPECT_EQ(math(printed(row)), "(3,4):(1,3)");
    EXPECT_EQ(math(printed(col)), "(4,3):(3,1)");
    EXPECT_EQ(math(printed(make_layout(row, col))), "((3,4),(4,3)):((1,3),(3,1))");
    Layout aa = make_layout(a);
    EXPECT_EQ(math(printed(aa)), "(3):(1)");
    EXPECT_EQ(math(printed(make_layout(aa))), "((3)):((1))");
    EXPECT_EQ(math(printed(make_layout(a, make_layout(a), a))), "(3,(3),3):(1,(1),1)");

    Layout ab = append(a, b);
    EXPECT_EQ(math(printed(ab)), "(3,4):(1,3)");
    EXPECT_EQ(math(printed(prepend(a, b))), "(4,3):(3,1)");
    Layout c = append(ab, ab);
    EXPECT_EQ(math(printed(c)), "(3,4,(3,4)):(1,3,(1,3))");
    EXPECT_EQ(math(printed(replace<2>(c, b))), "(3,4,4):(1,3,3)");
  }
  {
    Layout a = Layout<Shape<_2, _3, _5, _7>>{};
    Layout b = group<0, 2>(a);
    Layout c = group<1, 3>(b);
    EXPECT_EQ(printed(a), "(_2,_3,_5,_7):(_1,_2,_6,_30)");
    EXPECT_EQ(printed(b), "((_2,_3),_5,_7):((_1,_2),_6,_30)");
    EXPECT_EQ(printed(c), "((_2,_3),(_5,_7)):((_1,_2),(_6,_30))");
    EXPECT_EQ(printed(flatten(b)), "(_2,_3,_5,_7):(_1,_2,_6,_30)");
    EXPECT_EQ(printed(flatten(c)), "(_2,_3,_5,_7):(_1,_2,_6,_30)");
  }
}

// 02_layout_algebra.md, "Coalesce" and "By-mode Coalesce".
TEST(CuteDocs, Coalesce) {
  {
    auto layout = Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{};
    EXPECT_EQ(printed(coalesce(layout)), "_12:_1");
  }
  {
    auto a = Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{};
    auto result = coalesce(a, Step<_1, _1>{});
    auto same_r = make_layout(coalesce(layout<0>(a)), coalesce(layout<1>(a)));
    EXPECT_EQ(printed(result), "(_2,_6):(_1,_2)");
    EXPECT_EQ(printed(same_r), printed(result));
  }
}

// 02_layout_algebra.md, "Composition": the worked examples 1-3 and "By-mode Composition".
TEST(CuteDocs, Composition) {
  {  // Example 1: A = (6,2):(8,2), B = (4,3):(3,1), R = ((2,2),3):((24,2),8), and its table.
    auto A = make_layout(make_shape(Int<6>{}, Int<2>{}), make_stride(Int<8>{}, Int<2>{}));
    auto B = make_layout(make_shape(Int<4>{}, Int<3>{}), make_stride(Int<3>{}, Int<1>{}));
    auto R = composition(A, B);
    EXPECT_EQ(math(printed(R)), "((2,2),3):((24,2),8)");
    int const expected[12] = {0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42};
    for (int i = 0; i < 12; ++i) EXPECT_EQ(R(i), expected[i]) << i;
  }
  {  // "Computing Composition": (3,6,2,8):(w,x,y,z) o 16:9 = (1,2,2,4):(9w,3x,y,z), here dynamic.
    int w = 1, x = 100, y = 1000, z = 10000;
    auto a = make_layout(make_shape(3, 6, 2, 8), make_stride(w, x, y, z));
    EXPECT_EQ(printed(composition(a, make_layout(16, 9))), "(1,2,2,4):(9,300,1000,10000)");
  }
  {  // Example 2: 20:2 o (5,4):(4,1) = (5,4):(8,2).
    auto r = composition(Layout<_20, _2>{}, Layout<Shape<_5, _4>, Stride<_4, _1>>{});
    EXPECT_EQ(math(printed(r)), "(5,4):(8,2)");
  }
  {  // Example 3, static.
    Layout a = make_layout(make_shape(Int<10>{}, Int<2>{}), make_stride(Int<16>{}, Int<4>{}));
    Layout b = make_layout(make_shape(Int<5>{}, Int<4>{}), make_stride(Int<1>{}, Int<5>{}));
    Layout c = composition(a, b);
    EXPECT_EQ(printed(c), "(_5,(_2,_2)):(_16,(_80,_4))");
  }
  {  // Example 3, dynamic.
    Layout a = make_layout(make_shape(10, 2), make_stride(16, 4));
    Layout b = make_layout(make_shape(5, 4), make_stride(1, 5));
    Layout c = composition(a, b);
    EXPECT_EQ(printed(c), "((5,1),(2,2)):((16,4),(80,4))");
  }
  {  // By-mode composition with a tiler of layouts.
    auto a = make_layout(make_shape(12, make_shape(4, 8)), make_stride(59, make_stride(13, 1)));
    auto tiler = make_tile(Layout<_3, _4>{}, Layout<_8, _2>{});
    auto result = composition(a, tiler);
    auto same_r = make_layout(composition(layout<0>(a), get<0>(tiler)), composition(layout<1>(a), get<1>(tiler)));
    EXPECT_EQ(printed(result), "(_3,(2,4)):(236,(26,1))");
    EXPECT_EQ(printed(same_r), printed(result));
  }
  {  // By-mode composition with a shape.
    auto a = make_layout(make_shape(12, make_shape(4, 8)), make_stride(59, make_stride(13, 1)));
    auto tiler = make_shape(Int<3>{}, Int<8>{});
    EXPECT_EQ(printed(composition(a, tiler)), "(_3,(4,2)):(59,(13,1))");
  }
}

// 02_layout_algebra.md, "Complement Examples" (all integers static).
TEST(CuteDocs, Complement) {
  EXPECT_EQ(math(printed(complement(Layout<_4, _1>{}, Int<24>{}))), "6:4");
  EXPECT_EQ(math(printed(complement(Layout<_6, _4>{}, Int<24>{}))), "4:1");
  EXPECT_EQ(math(printed(complement(Layout<Shape<_4, _6>, Stride<_1, _4>>{}, Int<24>{}))), "1:0");
  EXPECT_EQ(math(printed(complement(Layout<_4, _2>{}, Int<24>{}))), "(2,3):(1,8)");
  EXPECT_EQ(math(printed(complement(Layout<Shape<_2, _4>, Stride<_1, _6>>{}, Int<24>{}))), "3:2");
  EXPECT_EQ(math(printed(complement(Layout<Shape<_2, _2>, Stride<_1, _6>>{}, Int<24>{}))), "(3,2):(2,12)");
}

// 02_layout_algebra.md, "Logical Divide 1-D Example" and "Logical Divide 2-D Example".
TEST(CuteDocs, LogicalDivide) {
  {
    auto A = Layout<Shape<_4, _2, _3>, Stride<_2, _1, _8>>{};
    auto B = Layout<_4, _2>{};
    auto Bstar = complement(B, size(A));
    EXPECT_EQ(math(printed(Bstar)), "(2,3):(1,8)");
    EXPECT_EQ(math(printed(make_layout(B, Bstar))), "(4,(2,3)):(2,(1,8))");
    EXPECT_EQ(math(printed(logical_divide(A, B))), "((2,2),(2,3)):((4,1),(2,8))");
  }
  {
    auto layout_a = make_layout(make_shape(Int<9>{}, make_shape(Int<4>{}, Int<8>{})),
                                make_stride(Int<59>{}, make_stride(Int<13>{}, Int<1>{})));
    auto tiler = make_tile(Layout<_3, _3>{}, Layout<Shape<_2, _4>, Stride<_1, _8>>{});
    auto ld = logical_divide(layout_a, tiler);
    auto zd = zipped_divide(layout_a, tiler);
    // "the first mode of each mode of the result is the sublayout (3,(2,4)):(177,(13,2))"
    EXPECT_EQ(math(printed(make_layout(layout<0, 0>(ld), layout<1, 0>(ld)))), "(3,(2,4)):(177,(13,2))");
    EXPECT_EQ(math(printed(composition(layout_a, tiler))), "(3,(2,4)):(177,(13,2))");
    // "with shape ((3,3), (8,4))" and "with shape ((3,8), (3,4))"
    EXPECT_EQ(math(printed(transform(shape(ld), [](auto m) { return product_each(m); }))), "((3,3),(8,4))");
    EXPECT_EQ(math(printed(transform(shape(zd), [](auto m) { return product_each(m); }))), "((3,8),(3,4))");
    EXPECT_EQ(printed(layout<0>(zd)), printed(composition(layout_a, tiler)));
    // The 3rd, 7th and (1,2)th tiles start at zd(0,3), zd(0,7), zd(0,(1,2)).
    EXPECT_EQ(zd(0, 3), layout<1>(zd)(3));
    EXPECT_EQ(zd(0, 7), layout<1>(zd)(7));
    EXPECT_EQ(zd(0, make_coord(1, 2)), layout<1>(zd)(1 + 3 * 2));
  }
}

// 02_layout_algebra.md, "Zipped, Tiled, Flat Divides" and "Zipped and Tiled Products": the mode
// arrangements, on an (M,N,L) layout and a <TileM,TileN> tiler.
TEST(CuteDocs, DivideAndProductFlavors) {
  auto a = make_layout(make_shape(Int<12>{}, Int<8>{}, Int<2>{}));
  auto tiler = make_tile(Layout<_4, _1>{}, Layout<_2, _1>{});
  EXPECT_EQ(math(printed(shape(logical_divide(a, tiler)))), "((4,3),(2,4),2)");
  EXPECT_EQ(math(printed(shape(zipped_divide(a, tiler)))), "((4,2),(3,4,2))");
  EXPECT_EQ(math(printed(shape(tiled_divide(a, tiler)))), "((4,2),3,4,2)");
  EXPECT_EQ(math(printed(shape(flat_divide(a, tiler)))), "(4,2,3,4,2)");
  auto block = make_layout(make_shape(Int<3>{}, Int<5>{}, Int<2>{}));
  EXPECT_EQ(math(printed(shape(logical_product(block, tiler)))), "((3,4),(5,2),2)");
  EXPECT_EQ(math(printed(shape(zipped_product(block, tiler)))), "((3,5),(4,2,2))");
  EXPECT_EQ(math(printed(shape(tiled_product(block, tiler)))), "((3,5),4,2,2)");
  EXPECT_EQ(math(printed(shape(flat_product(block, tiler)))), "(3,5,4,2,2)");
}

// 02_layout_algebra.md, "Logical Product 1-D Example" and "Blocked and Raked Products".
TEST(CuteDocs, Products) {
  {
    auto A = Layout<Shape<_2, _2>, Stride<_4, _1>>{};
    auto B = Layout<_6, _1>{};
    auto Astar = complement(A, size(A) * cosize(B));
    EXPECT_EQ(math(printed(Astar)), "(2,3):(2,8)");
    EXPECT_EQ(math(printed(composition(Astar, B))), "(2,3):(2,8)");
    EXPECT_EQ(math(printed(logical_product(A, B))), "((2,2),(2,3)):((4,1),(2,8))");
    // "Note that the result is identical to the result of the 1-D Logical Divide example."
    EXPECT_EQ(printed(logical_product(A, B)),
              printed(logical_divide(Layout<Shape<_4, _2, _3>, Stride<_2, _1, _8>>{}, Layout<_4, _2>{})));
    // With B = (4,2):(2,1) there are 8 tiles.
    EXPECT_EQ(int(size<1>(logical_product(A, Layout<Shape<_4, _2>, Stride<_2, _1>>{}))), 8);
  }
  {
    // "A 2x5 row-major layout is arranged as a tile in a 3x4 column-major arrangement", mode-0
    // coalesced. Element (i + 2j, k + 5l) of the 6x20 result is A(i,k) + 10 * B(j,l).
    auto A = Layout<Shape<_2, _5>, Stride<_5, _1>>{};
    auto B = Layout<Shape<_3, _4>, Stride<_1, _3>>{};
    auto blocked = blocked_product(A, B);
    auto raked = raked_product(A, B);
    EXPECT_EQ(math(printed(blocked)), "(6,(5,4)):(5,(1,30))");
    EXPECT_EQ(math(printed(raked)), "((3,2),(4,5)):((10,5),(30,1))");
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 5; ++k)
          for (int l = 0; l < 4; ++l) {
            EXPECT_EQ(blocked(i + 2 * j, k + 5 * l), A(i, k) + 10 * B(j, l));
            EXPECT_EQ(raked(j + 3 * i, l + 4 * k), A(i, k) + 10 * B(j, l));
          }
  }
}
