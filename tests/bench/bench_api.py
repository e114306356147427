def main():
    print("api: not yet")
