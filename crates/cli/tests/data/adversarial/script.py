#!/usr/bin/env python3
"""Loads orders into the cluster."""
import csv

from cassandra.cluster import Cluster


def main():
    session = Cluster(["127.0.0.1"]).connect("shop")
    for row in csv.reader(open("orders.csv")):
        session.execute("INSERT INTO orders (customer_id) VALUES (%s)", row[:1])


if __name__ == "__main__":
    main()
