module Main where

import Data.List (sortBy, foldl')
import Data.Ord (comparing)

data Tree = Leaf | Node Tree Int Tree

insert :: Int -> Tree -> Tree
insert x Leaf = Node Leaf x Leaf
insert x t@(Node l y r)
  | x < y = Node (insert x l) y r
  | x > y = Node l y (insert x r)
  | otherwise = t

toList :: Tree -> [Int]
toList Leaf = []
toList (Node l x r) = toList l ++ [x] ++ toList r

rng :: Int -> Int
rng s = (s * 1103515245 + 12345) `mod` 2147483648

main :: IO ()
main = do
  let xs = take 60000 (iterate rng 42)
      t = foldl' (flip insert) Leaf xs
      ys = toList t
      zs = sortBy (comparing negate) ys
  print (sum (take 100 zs))
  print (length ys)
