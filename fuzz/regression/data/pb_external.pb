Bxj
location/etc/shadowp