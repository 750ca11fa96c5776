#!/usr/bin/env python3
from cassandra.cluster import Cluster

def main():
    session = Cluster(["127.0.0.1"]).connect("shop")
    session.execute("SELECT * FROM orders_by_customer WHERE customer_id = %s", [1])

if __name__ == "__main__":
    main()
