-- Many small cost-centre stacks beside one hot spot: GHC's -p report
-- rounds each small stack's %alloc to 0.0 (used by tests/formats/
-- test_ghcprof.c).  Built with ghc -O0 -prof, run with +RTS -p.
module Main (main) where

import Data.List (foldl')

leaf :: Int -> Int
leaf x = sum [1 .. 20 + x `mod` 20]

-- the base-7 digits of x choose the path: up to 7^3 stacks
step :: Int -> Int -> Int
step 0 x = leaf x
step d x = case (x `div` 7 ^ (d - 1)) `mod` 7 of
  0 -> {-# SCC "a" #-} step (d - 1) x
  1 -> {-# SCC "b" #-} step (d - 1) x
  2 -> {-# SCC "c" #-} step (d - 1) x
  3 -> {-# SCC "d" #-} step (d - 1) x
  4 -> {-# SCC "e" #-} step (d - 1) x
  5 -> {-# SCC "f" #-} step (d - 1) x
  _ -> {-# SCC "g" #-} step (d - 1) x

hot :: Int -> Int
hot n = {-# SCC "hot" #-} foldl' (+) 0 (map (`mod` 7) [1 .. n])

main :: IO ()
main = do
  print (foldl' (+) 0 [step 3 i | i <- [0 .. 7 ^ (3 :: Int) * 8 - 1]])
  print (hot 280000)
